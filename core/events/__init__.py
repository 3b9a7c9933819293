"""Events: frozen facts, the batch envelope, the one converter, and upcasters."""

from core.events.base import EVENT_TYPES, Event, event
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
from core.modes.solo.events import *  # noqa: F403  (the solo game's event classes)
from core.modes.solo.events import __all__ as _solo_events
from core.modes.table.events import *  # noqa: F403  (the table's facts)
from core.modes.table.events import __all__ as _table_events

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
    *_game_events,
    *_solo_events,
    *_table_events,
]
