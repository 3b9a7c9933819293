"""Strict, fast hooks for the one converter: a log is untrusted input, and read in bulk.

Structuring accepts only exactly the field's type: ``int`` is never a ``bool``
or a float, a ``str`` never a list, a tuple is read only from an array (never
from a string, bytes or a map, which cattrs would iterate), and a record
``tuple[int, int, int, str]`` has exactly its four items. cattrs would
otherwise convert (``int(1e30)``, ``str([1])``, ``bool("no")``) and replay
nonsense. A bad value raises ``TypeError`` (or ``KeyError`` for a missing
field), which the codec reports as ``EventFormatError``.

Speed: a game's log holds about 250 records (each command and each event),
and rebuilding a game is mostly reading them. cattrs' generated functions call
one hook per field; with a checking hook on every field that cost as much as
folding the events. So each event and command class gets a structuring
function generated the way cattrs generates its own (source in ``linecache``),
with the scalar checks written inline and a hook called only for arrays.
Unstructuring stays cattrs' own, with each array field turned into a list by
one builtin call (the output is what cattrs gives by default).
"""

from __future__ import annotations

import linecache
import types
from collections.abc import Callable
from typing import Any, Union, get_args, get_origin, get_type_hints

import attrs
from cattrs import Converter
from cattrs.fns import identity

#: A check takes a decoded value (and, as a cattrs hook, the type, which it ignores) and
#: returns it in the field's form (tuples for arrays), or raises TypeError.
Check = Callable[..., Any]

SCALARS = (int, str, bool)


def exact(kind: type) -> Check:
    """A check accepting only values of exactly ``kind`` (no ``bool`` for ``int``)."""

    def check(value: Any, _type: Any = None) -> Any:
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, not {_shown(value)}")
        return value

    return check


def _shown(value: Any) -> str:
    return f"{type(value).__name__} {value!r:.40}"


def optional_of(kind: Any) -> Any:
    """``X`` for ``X | None`` (or ``Optional[X]``), else ``None``."""
    if get_origin(kind) not in (Union, types.UnionType):
        return None
    args = [a for a in get_args(kind) if a is not type(None)]
    return args[0] if len(args) == 1 and len(get_args(kind)) == 2 else None


def check_for(kind: Any) -> Check:
    """The check of a field type: an exact scalar, ``X | None``, or a tuple."""
    if kind in SCALARS:
        return exact(kind)
    inner = optional_of(kind)
    if inner is not None:
        check = check_for(inner)
        return lambda value, _type=None: None if value is None else check(value)
    if get_origin(kind) is not tuple:
        raise TypeError(f"no strict check for {kind!r}")
    args = get_args(kind)
    if len(args) == 2 and args[1] is Ellipsis:
        return _homogeneous(args[0])
    return _fixed(args)


def _array(value: Any) -> Any:
    if type(value) is not list and type(value) is not tuple:
        raise TypeError(f"expected an array, not {_shown(value)}")
    return value


def _homogeneous(item: Any) -> Check:
    """``tuple[item, ...]``: scalars checked in one pass, anything else item by item."""
    if item in SCALARS:

        def scalars(value: Any, _type: Any = None) -> tuple:
            for x in _array(value):
                if type(x) is not item:
                    raise TypeError(f"expected {item.__name__} items, not {_shown(x)}")
            return tuple(value)

        return scalars
    kinds = get_args(item) if get_origin(item) is tuple else ()
    if kinds and Ellipsis not in kinds and all(k in SCALARS for k in kinds):
        names = " ".join(k.__name__ for k in kinds)

        def records(value: Any, _type: Any = None) -> tuple:
            """Records of scalars (placements, rolls): each checked in one comparison."""
            if type(value) is not tuple and type(value) is not list:
                raise TypeError(f"expected an array, not {_shown(value)}")
            out = []
            for x in value:
                # The types of exactly ``len(kinds)`` items, or the tuple differs.
                if (type(x) is not list and type(x) is not tuple) or tuple(map(type, x)) != kinds:
                    raise TypeError(f"expected arrays of {names}, not {_shown(x)}")
                out.append(tuple(x))
            return tuple(out)

        return records
    check = check_for(item)
    return lambda value, _type=None: tuple([check(x) for x in _array(value)])


def _fixed(kinds: tuple) -> Check:
    """``tuple[A, B, ...]``: exactly that many items, each of exactly its type."""
    size = len(kinds)
    if all(k in SCALARS for k in kinds):
        names = " ".join(k.__name__ for k in kinds)

        def record(value: Any, _type: Any = None) -> tuple:
            if (type(value) is not list and type(value) is not tuple) or len(value) != size:
                raise TypeError(f"expected an array of {size} items, not {_shown(value)}")
            if tuple(map(type, value)) != kinds:
                raise TypeError(f"expected {names}, not {_shown(value)}")
            return tuple(value)

        return record
    checks = tuple(check_for(k) for k in kinds)

    def nested(value: Any, _type: Any = None) -> tuple:
        if len(_array(value)) != size:
            raise TypeError(f"expected an array of {size} items, not {_shown(value)}")
        return tuple([check(x) for check, x in zip(checks, value, strict=True)])

    return nested


def is_field_type(kind: Any) -> bool:
    """True for the field types ``check_for`` handles."""
    return kind in SCALARS or optional_of(kind) is not None or get_origin(kind) is tuple


# --- whole records --------------------------------------------------------------------


def _inline_test(name: str, kind: Any) -> str | None:
    """A Python expression true when ``name`` is *not* a valid ``kind`` (scalars only)."""
    if kind in SCALARS:
        return f"type({name}) is not {kind.__name__}"
    inner = optional_of(kind)
    if inner in SCALARS:
        return f"({name} is not None and type({name}) is not {inner.__name__})"
    return None


def record_structurer(cls: type) -> Check:
    """The structuring function of an attrs event or command class (see the module doc)."""
    hints = get_type_hints(cls)
    scope: dict[str, Any] = {"__cl": cls, "__refuse": _refuser(cls, hints)}
    lines = [f"def structure_{cls.__name__}(o, _type=None):"]
    tests, args = [], []
    for a in attrs.fields(cls):
        name, kind = a.name, hints[a.name]
        local = f"f_{name}"
        if a.default is attrs.NOTHING:
            lines.append(f"    {local} = o[{name!r}]")
        else:
            if isinstance(a.default, attrs.Factory):  # type: ignore[arg-type]  # a class at run time, typed as a function
                raise TypeError(f"{cls.__name__}.{name}: factory defaults are not supported")
            scope[f"d_{name}"] = a.default
            lines.append(f"    {local} = o[{name!r}] if {name!r} in o else d_{name}")
        test = _inline_test(local, kind)
        if test is not None:
            tests.append(test)
            args.append(local)
        else:
            scope[f"c_{name}"] = check_for(kind)
            if get_origin(kind) is tuple:  # an empty array (read as a tuple) needs no check
                empty = f"type({local}) is tuple and not {local}"
                args.append(f"({local} if {empty} else c_{name}({local}))")
            else:
                args.append(f"c_{name}({local})")
    if tests:
        lines.append(f"    if {' or '.join(tests)}:")
        lines.append("        __refuse(o)")
    lines.append(f"    return __cl({', '.join(args)})")
    source = "\n".join(lines) + "\n"
    filename = f"<strict structure {cls.__module__}.{cls.__qualname__}>"
    exec(compile(source, filename, "exec"), scope)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    return scope[f"structure_{cls.__name__}"]


def _refuser(cls: type, hints: dict[str, Any]) -> Callable[[Any], None]:
    """Raise the TypeError naming the first field whose scalar value is wrong."""
    checks = {a.name: check_for(hints[a.name]) for a in attrs.fields(cls)}

    def refuse(o: Any) -> None:
        for name, check in checks.items():
            if name in o:
                try:
                    check(o[name])
                except TypeError as exc:
                    raise TypeError(f"{name}: {exc}") from None
        raise TypeError(f"a field of {cls.__name__} has the wrong type")  # not reached

    return refuse


# --- unstructuring ----------------------------------------------------------------------


def is_plain(kind: Any) -> bool:
    """Optional scalars and tuples of scalars or of scalar records: msgpack packs them as is."""
    inner = optional_of(kind)
    if inner is not None:
        return inner in SCALARS
    if get_origin(kind) is not tuple:
        return False
    items = get_args(kind)
    items = items[:1] if len(items) == 2 and items[1] is Ellipsis else items
    return all(a in SCALARS or is_plain(a) for a in items)


def install(converter: Converter, classes: Callable[[Any], bool]) -> None:
    """Register the strict hooks on ``converter``; ``classes`` picks the record classes."""
    converter.register_structure_hook_factory(is_field_type, check_for)
    converter.register_structure_hook_factory(classes, record_structurer)
    # An array field becomes a list (records inside it stay tuples), as cattrs' default
    # hook does, by one builtin call instead of a generic per-item loop.
    converter.register_unstructure_hook_factory(
        is_plain, lambda kind: identity if optional_of(kind) is not None else list
    )
