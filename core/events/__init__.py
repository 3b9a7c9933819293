"""Events: frozen facts, the batch envelope, the one converter, and upcasters.

The facts every mode shares and the multiplayer game's are here (``core.events.game``);
the solo game's and the table's are in their modes' packages (``core.modes.solo.events``,
``core.modes.table.events``). The table of tags a log may hold is filled when the modes
are installed (``core.modes.install``), not by defining a class.
"""

from core.events.base import EVENT_TYPES, Event, event, register_events
from core.events.codec import (
    Batch,
    command_from_dict,
    command_to_dict,
    converter,
    decode_batch,
    encode_batch,
    event_from_dict,
    event_to_dict,
)
from core.events.game import *  # noqa: F403  (the event classes)
from core.events.game import __all__ as _game_events

__all__ = [
    "EVENT_TYPES",
    "Batch",
    "Event",
    "command_from_dict",
    "command_to_dict",
    "converter",
    "decode_batch",
    "encode_batch",
    "event",
    "event_from_dict",
    "event_to_dict",
    "register_events",
    *_game_events,
]
