"""Every event class's stable tag and schema version, and the table of the events a log
may hold.

A tag is the name written into the log for a class; it never changes once a log
exists that uses it. A schema version counts changes to the class's fields; the
codec upcasts older versions on reading (see ``core.events.upcasters``).

``@event`` only names a class. The table the codec reads tags with is filled by one
explicit call, ``register_events``, made when the game modes are installed
(``core.modes.install``): defining an event class registers nothing.
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
    #: True for a fact that always carries a random outcome (a roll, a draw from the bag).
    ROLLS: ClassVar[bool] = False

    def shows_dice(self) -> bool:
        """True if this fact shows what dice rolled: once seen, undo may never take it
        back (``core.events.chance``). Facts that roll only sometimes say so themselves."""
        return self.ROLLS


def event(version: int = 1, tag: str | None = None, rolls: bool = False):
    """Class decorator: name an event class, at schema ``version``.

    The tag defaults to the class name; pass ``tag`` to keep an old name when a
    class is renamed, so logs written before the rename still load. ``rolls`` marks a
    fact that always carries a random outcome.
    """

    def name(cls: E) -> E:
        cls.TAG = tag or cls.__name__
        cls.VERSION = version
        cls.ROLLS = rolls
        return cls

    return name


def register_events(*classes: type[Event]) -> None:
    """Add event classes to the table the codec reads tags with (``core.modes.install``
    calls it for every mode's events). A tag is one class's for good: a second class
    claiming it is refused; registering the same class again changes nothing."""
    for cls in classes:
        known = EVENT_TYPES.get(cls.TAG)
        if known is not None and known is not cls:
            raise ValueError(f"event tag {cls.TAG!r} is already used by {known.__name__}")
        EVENT_TYPES[cls.TAG] = cls


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
