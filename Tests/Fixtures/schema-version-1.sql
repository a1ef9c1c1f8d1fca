-- The schema checkrun wrote as version 1 (migration 1), kept as it shipped.
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    release TEXT NOT NULL,
    build TEXT NOT NULL,
    device TEXT NOT NULL DEFAULT '',
    os_version TEXT NOT NULL DEFAULT '',
    tester TEXT NOT NULL DEFAULT '',
    plan TEXT NOT NULL,
    started_at REAL NOT NULL,
    finished_at REAL
);
CREATE INDEX sessions_by_release ON sessions (release, build, device);

CREATE TABLE results (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id),
    check_name TEXT NOT NULL,
    protocol_hash TEXT NOT NULL,
    attempt INTEGER NOT NULL CHECK (attempt >= 1),
    verdict TEXT CHECK (verdict IN ('pass', 'fail', 'blocked', 'skipped')),
    blocked_reason TEXT,
    active_seconds REAL,
    tally INTEGER NOT NULL DEFAULT 0,
    notes TEXT,
    notes_answered_at REAL,
    started_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    UNIQUE (session_id, check_name, attempt)
);
CREATE INDEX results_by_check ON results (check_name);

CREATE TABLE outcome_answers (
    result_id TEXT NOT NULL REFERENCES results (id),
    position INTEGER NOT NULL,
    verdict TEXT NOT NULL CHECK (verdict IN ('pass', 'fail', 'na')),
    value INTEGER,
    note TEXT,
    answered_at REAL NOT NULL,
    PRIMARY KEY (result_id, position)
) WITHOUT ROWID;

CREATE TABLE counter_values (
    result_id TEXT NOT NULL REFERENCES results (id),
    counter TEXT NOT NULL,
    value INTEGER NOT NULL,
    answered_at REAL NOT NULL,
    PRIMARY KEY (result_id, counter)
) WITHOUT ROWID;

CREATE TABLE stopwatch_events (
    result_id TEXT NOT NULL REFERENCES results (id),
    sequence INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('start', 'pause', 'resume', 'stop', 'typed')),
    at REAL NOT NULL,
    typed_seconds REAL,
    recorded_at REAL NOT NULL,
    PRIMARY KEY (result_id, sequence)
) WITHOUT ROWID;
