/// The team store's tables on PostgreSQL, in steps numbered as SQLite's schema versions are,
/// so one number names one layout on both engines. The version is kept in `checkrun_schema`
/// (SQLite keeps it in `user_version`). Text compares and sorts by code point (`COLLATE "C"`),
/// as SQLite's does, so lists come out in the same order from either engine.
enum PostgresSchema {
    struct Step {
        /// The version the database has after this step.
        var version: Int
        var sql: String
    }

    static let steps = [Step(version: 5, sql: layout5), Step(version: 6, sql: Schema.resultsSetAside)]

    static var latestVersion: Int { steps.map(\.version).max() ?? 0 }

    /// Schema version 5 (sessions, results and their parts, records, protocol texts and
    /// attachments) as one step: a PostgreSQL store starts at the layout SQLite reached in five.
    private static let layout5 = """
        CREATE TABLE checkrun_schema (application TEXT NOT NULL, version INTEGER NOT NULL);
        CREATE FUNCTION checkrun_list(list TEXT) RETURNS TABLE (key BIGINT, value TEXT) LANGUAGE sql IMMUTABLE STRICT ROWS 10 AS $$
            SELECT ordinality - 1, element FROM json_array_elements_text(list::json) WITH ORDINALITY AS t(element, ordinality)
        $$;
        CREATE TABLE sessions (
            id TEXT COLLATE "C" PRIMARY KEY,
            release TEXT COLLATE "C" NOT NULL,
            build TEXT COLLATE "C" NOT NULL,
            device TEXT COLLATE "C" NOT NULL DEFAULT '',
            os_version TEXT COLLATE "C" NOT NULL DEFAULT '',
            tester TEXT COLLATE "C" NOT NULL DEFAULT '',
            plan TEXT COLLATE "C" NOT NULL,
            started_at DOUBLE PRECISION NOT NULL,
            finished_at DOUBLE PRECISION
        );
        CREATE INDEX sessions_by_release ON sessions (release, build, device);
        CREATE TABLE results (
            rowid BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
            id TEXT COLLATE "C" PRIMARY KEY,
            session_id TEXT COLLATE "C" NOT NULL REFERENCES sessions (id),
            check_name TEXT COLLATE "C" NOT NULL,
            protocol_hash TEXT COLLATE "C" NOT NULL,
            attempt BIGINT NOT NULL CHECK (attempt >= 1),
            verdict TEXT COLLATE "C" CHECK (verdict IN ('pass', 'fail', 'blocked', 'skipped')),
            blocked_reason TEXT COLLATE "C",
            active_seconds DOUBLE PRECISION,
            tally BIGINT NOT NULL DEFAULT 0,
            notes TEXT COLLATE "C",
            notes_answered_at DOUBLE PRECISION,
            started_at DOUBLE PRECISION NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL,
            amendments BIGINT NOT NULL DEFAULT 0,
            amend_reason TEXT COLLATE "C",
            UNIQUE (session_id, check_name, attempt)
        );
        CREATE INDEX results_by_check ON results (check_name);
        CREATE TABLE outcome_answers (
            result_id TEXT COLLATE "C" NOT NULL REFERENCES results (id),
            position BIGINT NOT NULL,
            verdict TEXT COLLATE "C" NOT NULL CHECK (verdict IN ('pass', 'fail', 'na')),
            value BIGINT,
            note TEXT COLLATE "C",
            answered_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (result_id, position)
        );
        CREATE TABLE counter_values (
            result_id TEXT COLLATE "C" NOT NULL REFERENCES results (id),
            counter TEXT COLLATE "C" NOT NULL,
            value BIGINT NOT NULL,
            answered_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (result_id, counter)
        );
        CREATE TABLE stopwatch_events (
            result_id TEXT COLLATE "C" NOT NULL REFERENCES results (id),
            sequence BIGINT NOT NULL,
            kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('start', 'pause', 'resume', 'stop', 'typed')),
            at DOUBLE PRECISION NOT NULL,
            typed_seconds DOUBLE PRECISION,
            recorded_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (result_id, sequence)
        );
        CREATE TABLE records (
            session_id TEXT COLLATE "C" NOT NULL REFERENCES sessions (id),
            sequence BIGINT NOT NULL CHECK (sequence >= 1),
            result_id TEXT COLLATE "C" NOT NULL,
            kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('answer', 'amend')),
            reason TEXT COLLATE "C",
            payload TEXT COLLATE "C" NOT NULL,
            recorded_at DOUBLE PRECISION NOT NULL,
            previous_hash TEXT COLLATE "C" NOT NULL,
            hash TEXT COLLATE "C" NOT NULL,
            PRIMARY KEY (session_id, sequence)
        );
        CREATE INDEX records_by_result ON records (result_id);
        CREATE TABLE protocol_versions (
            hash TEXT COLLATE "C" NOT NULL UNIQUE,
            protocol_id TEXT COLLATE "C" NOT NULL,
            content TEXT COLLATE "C" NOT NULL
        );
        CREATE TABLE attachment_files (
            hash TEXT COLLATE "C" NOT NULL UNIQUE,
            size BIGINT NOT NULL CHECK (size > 0)
        );
        CREATE TABLE attachment_pieces (
            hash TEXT COLLATE "C" NOT NULL REFERENCES attachment_files (hash),
            piece BIGINT NOT NULL,
            bytes BYTEA NOT NULL,
            PRIMARY KEY (hash, piece)
        );
        CREATE TABLE result_attachments (
            result_id TEXT COLLATE "C" NOT NULL REFERENCES results (id),
            position BIGINT NOT NULL,
            hash TEXT COLLATE "C" NOT NULL,
            name TEXT COLLATE "C" NOT NULL,
            media_type TEXT COLLATE "C" NOT NULL,
            size BIGINT NOT NULL,
            description TEXT COLLATE "C" NOT NULL,
            outcome BIGINT,
            attached_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (result_id, position)
        );
        CREATE INDEX result_attachments_by_hash ON result_attachments (hash);
        INSERT INTO checkrun_schema (application, version) VALUES ('checkrun', 0);
        """
}
