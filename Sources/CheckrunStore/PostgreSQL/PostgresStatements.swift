/// The store's statements that PostgreSQL needs written its own way, each beside the reason;
/// the SQLite form of each is where the store uses it.
enum PostgresStatements {
    /// `ResultStore.latestResultQuery`: SQLite takes the row of each group's max() as the
    /// group's row; PostgreSQL picks it with DISTINCT ON and counts the group with a window.
    /// The key truncates to the microsecond as SQLite's CAST does (PostgreSQL's rounds).
    static func latestResultQuery(_ resultColumns: String, among condition: String) -> String {
        """
        WITH ranks (build, rank) AS (SELECT value, key FROM json_each(?3)),
        scoped AS (
            SELECT r.rowid AS row, r.check_name AS check_name, s.device AS device, s.os_version AS os, ranks.rank AS rank,
                CAST(trunc(r.updated_at * 1000000) AS BIGINT) * 1024 + least(r.attempt, 1023) AS key
            FROM results r JOIN sessions s ON s.id = r.session_id JOIN ranks ON ranks.build = s.build
            WHERE s.release = ?1 AND (?2 IS NULL OR s.build = ?2) AND \(condition)
        ),
        newest AS (SELECT check_name, device, os, max(rank) AS rank FROM scoped GROUP BY check_name, device, os),
        latest AS (
            SELECT DISTINCT ON (scoped.check_name, scoped.device, scoped.os) scoped.row AS row,
                count(*) OVER (PARTITION BY scoped.check_name, scoped.device, scoped.os) AS attempts
            FROM scoped JOIN newest ON newest.check_name = scoped.check_name AND newest.device = scoped.device AND newest.os = scoped.os
                AND newest.rank = scoped.rank
            ORDER BY scoped.check_name, scoped.device, scoped.os, scoped.key DESC
        )
        SELECT \(resultColumns), s.release, s.build, s.device, s.tester, latest.attempts, r.amendments, r.amend_reason, s.os_version
        FROM latest JOIN results r ON r.rowid = latest.row JOIN sessions s ON s.id = r.session_id
        ORDER BY r.check_name, s.device, s.os_version
        """
    }

    /// `ResultStore.groupResults`: one session at a time, each read in its index's order. The
    /// server otherwise gathered the whole group through a bitmap and sorted it, half the
    /// statement's time.
    static let groupResults = """
        SELECT \(ResultStore.resultColumns), r.active_seconds, r.amendments, r.amend_reason
        FROM json_each(?1) ids CROSS JOIN LATERAL (
            SELECT * FROM results x WHERE x.session_id = ids.value ORDER BY x.check_name, x.attempt) r
        """

    /// `ResultStore.groupRecords`: one session at a time, for the same reason.
    static let groupRecords = """
        SELECT r.session_id, r.sequence, r.result_id, r.kind, r.reason, r.payload, r.previous_hash, r.hash
        FROM json_each(?1) ids CROSS JOIN LATERAL (
            SELECT * FROM records x WHERE x.session_id = ids.value ORDER BY x.sequence) r
        """

    /// A result's parts removed in one statement (SQLite runs one DELETE per table).
    static let clearParts = """
        WITH outcomes AS (DELETE FROM outcome_answers WHERE result_id = ?1),
            counters AS (DELETE FROM counter_values WHERE result_id = ?1),
            attachments AS (DELETE FROM result_attachments WHERE result_id = ?1)
        DELETE FROM stopwatch_events WHERE result_id = ?1
        """

    /// `ResultStore.mergeTables`: PostgreSQL has no WITHOUT ROWID, and an index takes its table's schema.
    static let mergeTables = """
        CREATE TEMP TABLE IF NOT EXISTS merge_claims (result_id TEXT COLLATE "C" PRIMARY KEY, session_id TEXT COLLATE "C" NOT NULL);
        CREATE TEMP TABLE IF NOT EXISTS merge_sessions (id TEXT COLLATE "C" PRIMARY KEY, details TEXT COLLATE "C" NOT NULL);
        CREATE TEMP TABLE IF NOT EXISTS merge_records (session_id TEXT COLLATE "C" NOT NULL, sequence BIGINT NOT NULL, hash TEXT COLLATE "C" NOT NULL, PRIMARY KEY (session_id, sequence));
        CREATE TEMP TABLE IF NOT EXISTS merge_named (hash TEXT COLLATE "C" NOT NULL, size BIGINT NOT NULL, place TEXT COLLATE "C" NOT NULL);
        CREATE INDEX IF NOT EXISTS merge_named_by_hash ON merge_named (hash);
        CREATE TEMP TABLE IF NOT EXISTS merge_attachments (hash TEXT COLLATE "C" PRIMARY KEY, size BIGINT NOT NULL);
        """

    /// `storedSizes(of:)`: on a server the bytes are kept in pieces, whose lengths add up.
    static let storedSizes = """
        SELECT f.hash, f.size, (SELECT sum(length(p.bytes)) FROM attachment_pieces p WHERE p.hash = f.hash)
        FROM attachment_files f WHERE f.hash IN (SELECT value FROM json_each(?))
        """

    /// `ResultStore.dropMergeTables`: a server's temporary tables are in `pg_temp`.
    static let dropMergeTables = "DROP TABLE IF EXISTS pg_temp.merge_claims, pg_temp.merge_sessions, pg_temp.merge_records, pg_temp.merge_named, pg_temp.merge_attachments"

    /// `forEachTimingRow`'s statement: the scopes' pairs are read with PostgreSQL's JSON
    /// operators, and the counters joined with string_agg (SQLite's group_concat).
    static let timingQuery = """
        WITH scopes (release, build, scope) AS (
            SELECT pair::json->>0, pair::json->>1, key FROM (SELECT value AS pair, key FROM json_each(?1)) AS pairs)
        SELECT r.check_name, scopes.scope, \(ResultStore.standingVerdict), r.active_seconds, r.protocol_hash, r.updated_at,
            (SELECT string_agg(c.counter || '=' || c.value, ',') FROM counter_values c WHERE c.result_id = r.id), s.device, r.rowid, s.os_version,
            r.verdict
        FROM scopes JOIN sessions s ON s.release = scopes.release AND s.build = scopes.build
        JOIN results r ON r.session_id = s.id
        WHERE r.verdict IS NOT NULL
        ORDER BY r.check_name, r.updated_at, r.attempt
        """

    /// `ResultStore.sessionsWithFirstRecords`: the server joins each session's first record
    /// in one pass (five subqueries were five probes a session).
    static let sessionsWithFirstRecords = """
        SELECT \(ResultStore.sessionColumns.split(separator: ",").map { "s." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")),
            r.previous_hash, r.kind, r.reason, r.payload, r.hash
        FROM sessions s LEFT JOIN records r ON r.session_id = s.id AND r.sequence = 1
        """

    /// `ResultStore.sessionsGone(of:)` on the server: each session id of the table once, found
    /// by skipping along the index that leads with it (one probe a session: 0.1 s at a million
    /// records where DISTINCT read them all, 20 s from a cold cache), then looked up.
    static func sessionsGone(of table: String) -> String {
        """
        WITH RECURSIVE ids (id) AS (
            (SELECT session_id FROM \(table) ORDER BY session_id LIMIT 1)
            UNION ALL
            SELECT (SELECT t.session_id FROM \(table) t WHERE t.session_id > ids.id ORDER BY t.session_id LIMIT 1) FROM ids WHERE ids.id IS NOT NULL)
        SELECT id FROM ids WHERE id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = ids.id)
        """
    }
}
