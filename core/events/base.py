"""The registry that gives every event class a stable tag and a schema version.

A tag is the name written into the log for a class; it never changes once a log
exists that uses it. A schema version counts changes to the class's fields; the
codec upcasts older versions on reading (see ``core.events.upcasters``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, TypeVar

EVENT_TYPES: dict[str, type[Event]] = {}

E = TypeVar("E", bound="type[Event]")


class Event:
    """Base of every event: a fact that happened, named in the past tense."""

    __slots__ = ()
    TAG: ClassVar[str]
    VERSION: ClassVar[int]


def event(version: int = 1, tag: str | None = None):
    """Class decorator: register an event class at schema ``version``.

    The tag defaults to the class name; pass ``tag`` to keep an old name when a
    class is renamed, so logs written before the rename still load.
    """

    def register(cls: E) -> E:
        nonlocal tag
        tag = tag or cls.__name__
        if tag in EVENT_TYPES:
            raise ValueError(f"event tag {tag!r} is already used by {EVENT_TYPES[tag].__name__}")
        cls.TAG = tag
        cls.VERSION = version
        EVENT_TYPES[tag] = cls
        return cls

    return register


def event_table(table: dict) -> Callable:
    """A decorator filling ``table``, keyed by event class: ``@handles(EventClass)`` above
    the function for it (a mode's fold, its words), so a mode's part needs no more of the
    layer that will use its table than this."""

    def handles(cls: type[Event]):
        def add(fn: Callable) -> Callable:
            table[cls] = fn
            return fn

        return add

    return handles
