"""The PostgreSQL store's schema: numbered migrations, applied at start under a lock.

Each migration is SQL run once, in order, in one transaction with the row that
records it in ``schema_version``. ``migrate`` takes a transaction-scoped
advisory lock first, so processes starting together apply each migration once
and the others find it done. A database at a newer version than this program
knows is refused: an older program must not write to a schema it does not know.

What the schema guarantees (``docs/operate.md`` says it for operators):

* ``games`` holds each game's header (the exact msgpack bytes of a log file's
  header frame, with their crc32) and its head: the next seq, the number of
  batch records, and when it was created and last appended to (the database's
  clock). Its id and header never change, its next seq only grows, and no game
  is ever deleted.
* ``batches`` holds one row per command's batch, keyed by (game, first seq): the
  end seq, the record number (the first batch is 1, as in a log file), the
  payload exactly as ``core.events.codec.encode_batch`` made it, and its crc32.
  A trigger refuses every UPDATE, DELETE and TRUNCATE: the database itself keeps
  the log append-only. Another, after each insert, announces the append with
  ``pg_notify('dice_miner_appends', '<game id> <next seq>')``, sent at commit.
* ``seatings`` and ``seats``: a game's seating, one row per seat, beside the log;
  ``seatings.secret`` the secret seed a live game's dice come from (migration 2),
  which its log only commits to until the game ends.
* The work the database hands out (migration 4, ``core.store.pgwork``):
  ``live_games`` holds a row per game still in play (the places the site's limit
  counts, its client, and the status its last writer left: the seq, whether it
  waits on a person or a bot, when a person last moved); ``bot_turns`` a row per
  game whose bot is due, claimed by one worker at a time under a lease;
  ``sweeps`` whose turn it is to look for idle games. None of it is the log:
  these rows change and go, and a lost one is made again from the log.
* ``analyses`` (migration 5, ``core.store.pganalyses``): a game analysis the web
  asked for, by the log's SHA-256: the log's bytes, who asked, its state and
  progress, and its document once done; claimed by one worker under a lease.
"""

from __future__ import annotations

from typing import Any

#: The channel appends are announced on; the payload is ``"<game id> <next seq>"``.
NOTIFY_CHANNEL = "dice_miner_appends"
#: The advisory lock key migrations hold (``pg_advisory_xact_lock``): "DiceMinr" in ASCII.
MIGRATION_LOCK = 0x446963654D696E72

#: (version, what it does, SQL). Never edit one that has shipped: add the next.
MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (
        1,
        "games, append-only batches announced on dice_miner_appends, seatings",
        r"""
CREATE TABLE games (
    id         text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{1,64}$'),
    header     bytea NOT NULL,
    header_crc bigint NOT NULL CHECK (header_crc BETWEEN 0 AND 4294967295),
    next_seq   bigint NOT NULL CHECK (next_seq >= 0),
    records    integer NOT NULL CHECK (records >= 0),
    created    timestamptz NOT NULL DEFAULT clock_timestamp(),
    updated    timestamptz NOT NULL DEFAULT clock_timestamp(),
    number     bigint GENERATED ALWAYS AS IDENTITY UNIQUE
);

CREATE TABLE batches (
    game     text NOT NULL REFERENCES games (id),
    seq      bigint NOT NULL CHECK (seq >= 0),
    end_seq  bigint NOT NULL,
    record   integer NOT NULL CHECK (record >= 1),
    payload  bytea NOT NULL,
    crc      bigint NOT NULL CHECK (crc BETWEEN 0 AND 4294967295),
    PRIMARY KEY (game, seq),
    UNIQUE (game, record),
    CHECK (end_seq > seq)
);

CREATE FUNCTION dice_miner_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'dice miner: % on % refused: %', TG_OP, TG_TABLE_NAME, TG_ARGV[0]
        USING ERRCODE = 'prohibited_sql_statement_attempted';
END
$$;

CREATE TRIGGER batches_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON batches
    FOR EACH STATEMENT
    EXECUTE FUNCTION dice_miner_refuse('stored batches are never changed or removed');

CREATE TRIGGER games_never_removed
    BEFORE DELETE OR TRUNCATE ON games
    FOR EACH STATEMENT
    EXECUTE FUNCTION dice_miner_refuse('a stored game is never removed');

CREATE FUNCTION dice_miner_game_head() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.id <> OLD.id OR NEW.header <> OLD.header OR NEW.header_crc <> OLD.header_crc
       OR NEW.created <> OLD.created OR NEW.number <> OLD.number THEN
        RAISE EXCEPTION 'dice miner: a game''s id, header and creation never change'
            USING ERRCODE = 'prohibited_sql_statement_attempted';
    END IF;
    IF NEW.next_seq < OLD.next_seq OR NEW.records < OLD.records THEN
        RAISE EXCEPTION 'dice miner: a game''s next seq and records only grow'
            USING ERRCODE = 'prohibited_sql_statement_attempted';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER games_head_only_grows
    BEFORE UPDATE ON games
    FOR EACH ROW
    EXECUTE FUNCTION dice_miner_game_head();

CREATE FUNCTION dice_miner_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('dice_miner_appends', NEW.game || ' ' || NEW.end_seq);
    RETURN NULL;
END
$$;

CREATE TRIGGER batches_announced
    AFTER INSERT ON batches
    FOR EACH ROW
    EXECUTE FUNCTION dice_miner_announce();

CREATE TABLE seatings (
    game  text PRIMARY KEY REFERENCES games (id),
    pace  double precision CHECK (pace IS NULL OR pace >= 0),
    saved timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE TABLE seats (
    game       text NOT NULL REFERENCES seatings (game),
    seat       smallint NOT NULL CHECK (seat >= 0),
    name       text NOT NULL,
    bot        text,
    token_hash text CHECK (token_hash ~ '^[0-9a-f]{64}$'),
    PRIMARY KEY (game, seat)
);
""",
    ),
)

MIGRATIONS += (
    (
        2,
        "a live game's secret seed kept with its seating, never in its log",
        r"""
ALTER TABLE seatings ADD COLUMN secret text CHECK (secret IS NULL OR secret ~ '^[0-9a-f]{64}$');
""",
    ),
)

MIGRATIONS += (
    (
        3,
        "each batch may name the client request it answers, so a retry is answered again",
        r"""
ALTER TABLE batches ADD COLUMN request text CHECK (request IS NULL OR length(request) <= 64);
CREATE INDEX batches_by_request ON batches (game, request) WHERE request IS NOT NULL;
""",
    ),
)

MIGRATIONS += (
    (
        4,
        "the work the database hands out: live games (places), bot turns, the sweep's turn",
        r"""
CREATE TABLE live_games (
    game         text PRIMARY KEY CHECK (game ~ '^[A-Za-z0-9_-]{1,64}$'),
    client       text CHECK (client IS NULL OR length(client) <= 128),
    opened       timestamptz NOT NULL DEFAULT clock_timestamp(),
    seq          bigint NOT NULL DEFAULT 0 CHECK (seq >= 0),
    waits        text CHECK (waits IS NULL OR waits IN ('person', 'bot', 'reveal')),
    persons      smallint NOT NULL DEFAULT 0 CHECK (persons >= 0),
    person_moved timestamptz NOT NULL DEFAULT clock_timestamp(),
    changed      timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX live_games_by_client ON live_games (client) WHERE client IS NOT NULL;
CREATE INDEX live_games_by_changed ON live_games (changed);

-- every game stored before this version may still be in play: each is looked at once by
-- the first sweep (its status is at seq 0, behind its head) and dropped if it is over
INSERT INTO live_games (game, seq) SELECT id, 0 FROM games;

CREATE TABLE bot_turns (
    game        text PRIMARY KEY,
    seq         bigint NOT NULL CHECK (seq >= 0),
    due         timestamptz NOT NULL,
    home        text,
    claimed_by  text,
    lease_until timestamptz
);
CREATE INDEX bot_turns_by_due ON bot_turns (due);

CREATE TABLE sweeps (
    name    text PRIMARY KEY,
    next_at timestamptz NOT NULL
);
INSERT INTO sweeps (name, next_at) VALUES ('lobby', clock_timestamp());
""",
    ),
)

MIGRATIONS += (
    (
        5,
        "game analyses the web asks for: queued once, claimed by one worker, kept",
        r"""
CREATE TABLE analyses (
    sha         text PRIMARY KEY CHECK (sha ~ '^[0-9a-f]{64}$'),
    name        text NOT NULL CHECK (length(name) <= 200),
    client      text CHECK (client IS NULL OR length(client) <= 128),
    log         bytea NOT NULL,
    state       text NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
    done        integer NOT NULL DEFAULT 0,
    total       integer NOT NULL DEFAULT 0,
    document    text,
    error       text,
    queued      timestamptz NOT NULL DEFAULT clock_timestamp(),
    claimed_by  text,
    lease_until timestamptz
);
CREATE INDEX analyses_waiting ON analyses (queued) WHERE state IN ('queued', 'running');
""",
    ),
)

#: The version this program's schema is at.
LATEST = MIGRATIONS[-1][0]

_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version     integer PRIMARY KEY,
    description text NOT NULL,
    applied     timestamptz NOT NULL DEFAULT clock_timestamp()
)
"""


class SchemaTooNew(Exception):
    """The database's schema is at a version this program does not know."""


def migrate(conn: Any) -> list[int]:
    """Bring the schema of ``conn``'s search path up to ``LATEST``; the versions applied.

    ``conn`` is a psycopg connection in autocommit mode. Safe to run from several
    processes at once, and a no-op (one lock, one query) when nothing is due.
    """
    applied = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute(_VERSION_TABLE)
        row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
        current = row[0]
        if current > LATEST:
            raise SchemaTooNew(
                f"the database's schema is at version {current}, newer than this program "
                f"knows ({LATEST}); upgrade dice-miner"
            )
        for version, description, sql in MIGRATIONS:
            if version > current:
                conn.execute(sql)
                conn.execute(
                    "INSERT INTO schema_version (version, description) VALUES (%s, %s)",
                    (version, description),
                )
                applied.append(version)
    return applied


__all__ = ["LATEST", "MIGRATIONS", "MIGRATION_LOCK", "NOTIFY_CHANNEL", "SchemaTooNew", "migrate"]
