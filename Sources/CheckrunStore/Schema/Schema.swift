/// The database schema, as migrations keyed by `PRAGMA user_version`: migration N brings a
/// database from version N-1 to N. Never edit a migration that has shipped; add the next one.
enum Schema {
    /// Marks a file as checkrun's ("ckrn"), so another program's SQLite file is never mistaken for one.
    static let applicationID: Int32 = 0x636B_726E

    /// One step of the schema: SQL, and for steps that must compute something SQL cannot
    /// (hashes), a backfill that runs in the same transaction. A backfill is given the raw
    /// connection, not the store: it reads and writes with SQL of its own, so the store's code
    /// can change later without changing what an old step does.
    struct Migration: Sendable {
        var sql: String
        var backfill: (@Sendable (Database) throws -> Void)?
    }

    static let migrations: [Migration] = [
        Migration(sql: migration1),
        // 2: the append-only record, chained by SHA-256 per session; amendments on results.
        Migration(sql: """
            CREATE TABLE records (
                session_id TEXT NOT NULL REFERENCES sessions (id),
                sequence INTEGER NOT NULL CHECK (sequence >= 1),
                result_id TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('answer', 'amend')),
                reason TEXT,
                payload TEXT NOT NULL,
                recorded_at REAL NOT NULL,
                previous_hash TEXT NOT NULL,
                hash TEXT NOT NULL,
                PRIMARY KEY (session_id, sequence)
            ) WITHOUT ROWID;
            CREATE INDEX records_by_result ON records (result_id);
            ALTER TABLE results ADD COLUMN amendments INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE results ADD COLUMN amend_reason TEXT;
            """, backfill: { database in try Migration2Records.backfill(database) }),
        // 3: records become an ordinary rowid table. As WITHOUT ROWID, each ~1 KB payload
        // overflowed into a page of its own, so records took about 4 KB apiece (three quarters
        // of the file was empty space) and every write and read moved four times the bytes.
        Migration(sql: """
            CREATE TABLE records_v3 (
                session_id TEXT NOT NULL REFERENCES sessions (id),
                sequence INTEGER NOT NULL CHECK (sequence >= 1),
                result_id TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('answer', 'amend')),
                reason TEXT,
                payload TEXT NOT NULL,
                recorded_at REAL NOT NULL,
                previous_hash TEXT NOT NULL,
                hash TEXT NOT NULL,
                PRIMARY KEY (session_id, sequence)
            );
            INSERT INTO records_v3 (session_id, sequence, result_id, kind, reason, payload, recorded_at, previous_hash, hash)
                SELECT session_id, sequence, result_id, kind, reason, payload, recorded_at, previous_hash, hash
                FROM records ORDER BY session_id, sequence;
            DROP TABLE records;
            ALTER TABLE records_v3 RENAME TO records;
            CREATE INDEX records_by_result ON records (result_id);
            """),
        // 4: the content of every protocol version a result was recorded against, keyed by its
        // SHA-256 (results already carry it), so reports, comparisons and resume work from the
        // database alone and show exactly the text the tester saw.
        Migration(sql: """
            CREATE TABLE protocol_versions (
                hash TEXT NOT NULL UNIQUE,
                protocol_id TEXT NOT NULL,
                content TEXT NOT NULL
            );
            """),
        // 5: evidence. The bytes of each attached file once, under the SHA-256 of their content
        // (a rowid table, so SQLite's incremental blob I/O can stream them in and out), and
        // each result's attachments as its latest record lists them.
        Migration(sql: """
            CREATE TABLE attachment_files (
                hash TEXT NOT NULL UNIQUE,
                size INTEGER NOT NULL CHECK (size > 0),
                content BLOB NOT NULL
            );
            CREATE TABLE result_attachments (
                result_id TEXT NOT NULL REFERENCES results (id),
                position INTEGER NOT NULL,
                hash TEXT NOT NULL,
                name TEXT NOT NULL,
                media_type TEXT NOT NULL,
                size INTEGER NOT NULL,
                description TEXT NOT NULL,
                outcome INTEGER,
                attached_at REAL NOT NULL,
                PRIMARY KEY (result_id, position)
            ) WITHOUT ROWID;
            CREATE INDEX result_attachments_by_hash ON result_attachments (hash);
            """),
        // 6: the skipped and blocked results, which few results are, in the order of their ids:
        // a report that judges their counts (`setAsideCounts`) read every result without it.
        Migration(sql: resultsSetAside),
    ]

    /// Step 6 on both engines (`PostgresSchema`). Its condition is the queries' own words, so
    /// SQLite's planner, which uses a partial index only for a condition it can match, uses it.
    static let resultsSetAside = "CREATE INDEX results_set_aside ON results (id) WHERE verdict IN ('skipped', 'blocked');"

    /// The oldest layout today's statements read as it is: later steps add indexes only, so a
    /// file at this version that cannot be upgraded here (read-only, or a merge's source) is
    /// read without upgrading it, only slower.
    static let oldestReadableAsItIs = 5

    private static let migration1 =
        // 1: sessions, results and their parts.
        """
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
        """

    static var latestVersion: Int { migrations.count }
}
