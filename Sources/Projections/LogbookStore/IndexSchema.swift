// SPDX-License-Identifier: MIT
internal import GRDB

/// The index's tables, as GRDB migrations. Times are GPS nanoseconds since the epoch,
/// distances metres, speeds m/s, durations seconds; `*_seq` are journal sequence numbers.
///
/// Every row can be rebuilt from the journal, so a migration that cannot carry data over may
/// simply empty the tables and reset `index_state` (the next open catches up from scratch).
enum IndexSchema {
    /// `PRAGMA application_id`: "LBIX". A SQLite file with another id is not ours.
    static let applicationID: Int32 = 0x4C42_4958
    /// The newest migration; a file that has applied migrations this list lacks was written
    /// by a newer version and is rebuilt rather than guessed at.
    static let version = "v2"

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1") { db in
            try db.execute(sql: """
                -- How far the index has read the journal, and the chain head there: the fingerprint
                -- that tells on open whether the journal still holds what was indexed.
                CREATE TABLE index_state (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    indexed_through_seq INTEGER NOT NULL,
                    chain_head BLOB NOT NULL
                );
                INSERT INTO index_state VALUES (1, 0, x'');
                -- Earlier fingerprints, thinned out: where to roll back to when the journal lost
                -- records the index had seen (a power cut before they were made durable).
                CREATE TABLE positions (seq INTEGER PRIMARY KEY, chain_head BLOB NOT NULL);

                CREATE TABLE trips (
                    id INTEGER PRIMARY KEY,
                    vehicle_id TEXT,
                    state TEXT NOT NULL CHECK (state IN ('open', 'closed', 'discarded')),
                    start_seq INTEGER NOT NULL,
                    last_seq INTEGER NOT NULL,          -- the last record that changed this row
                    start_reason TEXT NOT NULL,
                    end_reason TEXT,
                    started_at INTEGER,                 -- the start record's GPS time, else the first point's
                    ended_at INTEGER,                   -- the end record's GPS time, else the last point's
                    distance_m REAL NOT NULL,           -- the daemon's figures once ended; from the points while open
                    duration_s REAL NOT NULL,
                    avg_speed_mps REAL NOT NULL,
                    max_speed_mps REAL NOT NULL,
                    points INTEGER NOT NULL,
                    first_point_at INTEGER,
                    last_point_at INTEGER,
                    start_lat REAL, start_lon REAL,
                    end_lat REAL, end_lon REAL,
                    track_m REAL NOT NULL,              -- geodesic length over the stored points
                    crc INTEGER NOT NULL                -- RowCheck over the columns before it
                );
                CREATE INDEX trips_by_vehicle ON trips(vehicle_id, id);
                CREATE INDEX trips_by_start ON trips(started_at);
                CREATE INDEX trips_open ON trips(id) WHERE state = 'open';

                -- Points in chunks of up to 256 (PointChunkCodec): chunk n holds the trip's points
                -- n*256 ..< n*256 + count. Every table's `crc` is RowCheck over the row's other columns.
                CREATE TABLE point_chunks (
                    trip_id INTEGER NOT NULL,
                    chunk INTEGER NOT NULL,
                    first_seq INTEGER NOT NULL,
                    last_seq INTEGER NOT NULL,
                    count INTEGER NOT NULL,
                    first_time INTEGER NOT NULL,
                    last_time INTEGER NOT NULL,
                    min_lat REAL, max_lat REAL, min_lon REAL, max_lon REAL,
                    data BLOB NOT NULL,
                    crc INTEGER NOT NULL,
                    PRIMARY KEY (trip_id, chunk)
                );

                -- Stretches without a fix inside a trip (the daemon's gps:no-fix signal pairs).
                CREATE TABLE gaps (
                    trip_id INTEGER NOT NULL,
                    seq INTEGER NOT NULL,
                    from_time INTEGER,
                    to_time INTEGER,
                    crc INTEGER NOT NULL,
                    PRIMARY KEY (trip_id, seq)
                );

                -- Everything a person entered (vehicles, fuel, classifications, places…), as
                -- recorded; later projections read it from here.
                CREATE TABLE entries (
                    seq INTEGER PRIMARY KEY,
                    type TEXT NOT NULL,
                    action TEXT NOT NULL CHECK (action IN ('add', 'amend', 'void')),
                    subject TEXT NOT NULL,
                    fields TEXT NOT NULL,               -- a JSON object
                    recorded_at INTEGER,                -- wall-clock ns of the entering machine
                    origin TEXT NOT NULL,
                    crc INTEGER NOT NULL
                );
                CREATE INDEX entries_by_subject ON entries(type, subject, seq);
                """)
        }
        m.registerMigration("v2") { db in
            try db.execute(sql: """
                -- Trip numbers as corrections made them (void, reassign, merge, split: CorrectedTrips);
                -- the catalog shows these instead of the `trips` rows of the same number. A trip
                -- merged into another keeps a row with merged_into set, and is not shown.
                CREATE TABLE corrected_trips (
                    number INTEGER PRIMARY KEY,
                    merged_into INTEGER,
                    vehicle_id TEXT,
                    driver TEXT,
                    state TEXT NOT NULL CHECK (state IN ('open', 'closed', 'discarded')),
                    voided INTEGER NOT NULL,
                    void_reason TEXT,
                    start_reason TEXT NOT NULL,
                    end_reason TEXT,
                    started_at INTEGER,
                    ended_at INTEGER,
                    distance_m REAL NOT NULL,
                    duration_s REAL NOT NULL,
                    avg_speed_mps REAL NOT NULL,
                    max_speed_mps REAL NOT NULL,
                    points INTEGER NOT NULL,
                    start_lat REAL, start_lon REAL,
                    end_lat REAL, end_lon REAL,
                    merged_from TEXT NOT NULL,          -- trip numbers merged in, comma-separated
                    split_from INTEGER,
                    parts TEXT NOT NULL,                -- JSON [[recorded trip, from ns | null, until ns | null], ...]
                    crc INTEGER NOT NULL
                );
                CREATE INDEX corrected_by_vehicle ON corrected_trips(vehicle_id, number);
                -- Recorded trips the corrected rows are made from: a change to one rebuilds them.
                CREATE TABLE corrected_sources (trip_id INTEGER PRIMARY KEY);
                """)
        }
        return m
    }
}
