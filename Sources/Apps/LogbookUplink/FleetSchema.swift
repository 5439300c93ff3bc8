// SPDX-License-Identifier: MIT

/// The fleet store's schema, created and migrated by the uplink (docs/uplink.md, "Fleet store").
///
/// Several cars' uplinks may start at once against one database: migrations run in one
/// transaction under an advisory lock, and each is applied once (`schema_migrations`).
public enum FleetSchema {
    /// Migrations in order; index + 1 is the version. Never edit a shipped one: append.
    public static let migrations: [String] = [
        """
        CREATE TABLE devices (
            device_id   text PRIMARY KEY,
            public_key  bytea NOT NULL,
            first_seen  timestamptz NOT NULL DEFAULT now(),
            last_seen   timestamptz NOT NULL DEFAULT now(),
            last_seq    bigint NOT NULL DEFAULT 0
        );
        CREATE TABLE vehicles (
            device_id   text NOT NULL REFERENCES devices,
            vehicle_id  text NOT NULL,
            name        text,
            make        text,
            model       text,
            year        integer,
            registration text,
            PRIMARY KEY (device_id, vehicle_id)
        );
        CREATE TABLE trips (
            device_id     text NOT NULL REFERENCES devices,
            trip_id       bigint NOT NULL,
            vehicle_id    text,
            start_seq     bigint NOT NULL,
            start_reason  text NOT NULL,
            started_at    timestamptz,
            end_seq       bigint,
            end_reason    text,
            ended_at      timestamptz,
            distance_m    double precision,
            duration_s    double precision,
            max_speed_mps double precision,
            avg_speed_mps double precision,
            point_count   integer,
            discarded     boolean,
            PRIMARY KEY (device_id, trip_id)
        );
        CREATE TABLE points (
            device_id   text NOT NULL,
            seq         bigint NOT NULL,
            trip_id     bigint NOT NULL,
            time        timestamptz NOT NULL,
            lat         double precision,
            lon         double precision,
            speed_mps   real,
            track_deg   real,
            altitude_m  real,
            eph_m       real,
            PRIMARY KEY (device_id, seq)
        );
        CREATE INDEX points_trip ON points (device_id, trip_id);
        CREATE TABLE events (
            device_id   text NOT NULL,
            seq         bigint NOT NULL,
            kind        text NOT NULL,
            time        timestamptz,
            body        jsonb NOT NULL,
            PRIMARY KEY (device_id, seq)
        );
        CREATE TABLE checkpoints (
            device_id    text NOT NULL,
            seq          bigint NOT NULL,
            head         bytea NOT NULL,
            gps_time     timestamptz,
            gps_time_ns  bigint,
            monotonic_ns numeric(20) NOT NULL,
            signature    bytea NOT NULL,
            public_key   bytea NOT NULL,
            received_at  timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (device_id, seq, head)
        );
        """,
        // 2: the registry's fields and the trips as corrected (``FleetCorrections``). A trip
        // row keeps what the daemon recorded; the correction columns say what a person made of
        // it; a split-off trip is a row of its own (`recorded` false).
        """
        ALTER TABLE vehicles
            ADD COLUMN fuel_type text,
            ADD COLUMN vin text,
            ADD COLUMN driver text,
            ADD COLUMN retired boolean NOT NULL DEFAULT false;
        ALTER TABLE trips
            ADD COLUMN recorded boolean NOT NULL DEFAULT true,
            ADD COLUMN voided boolean NOT NULL DEFAULT false,
            ADD COLUMN void_reason text,
            ADD COLUMN assigned_vehicle_id text,
            ADD COLUMN driver text,
            ADD COLUMN merged_into bigint,
            ADD COLUMN split_from bigint,
            ADD COLUMN corrected_started_at timestamptz,
            ADD COLUMN corrected_ended_at timestamptz,
            ADD COLUMN corrected_distance_m double precision,
            ADD COLUMN corrected_duration_s double precision,
            ADD COLUMN correction_seq bigint;
        CREATE VIEW trips_corrected AS
            SELECT device_id, trip_id, coalesce(assigned_vehicle_id, vehicle_id) AS vehicle_id, driver,
                coalesce(corrected_started_at, started_at) AS started_at, coalesce(corrected_ended_at, ended_at) AS ended_at,
                coalesce(corrected_distance_m, distance_m) AS distance_m, coalesce(corrected_duration_s, duration_s) AS duration_s,
                voided, void_reason, split_from, discarded, (end_seq IS NOT NULL) AS closed
            FROM trips WHERE merged_into IS NULL;
        """,
    ]

    /// The version after all migrations.
    public static var version: Int { migrations.count }

    /// Creates the bookkeeping table and applies what is missing; returns the versions applied.
    @discardableResult
    public static func migrate(_ db: any SQLConnection) throws(UplinkError) -> [Int] {
        try db.execute("BEGIN", [])
        do {
            try db.execute("SELECT pg_advisory_xact_lock(7460121077)", [])
            try db.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
                [])
            let rows = try db.execute("SELECT coalesce(max(version), 0) FROM schema_migrations", [])
            let current = Int(rows.first?.first.flatMap { $0 } ?? "0") ?? 0
            var applied: [Int] = []
            for (i, sql) in migrations.enumerated() where i + 1 > current {
                try db.execute(sql, [])
                try db.execute("INSERT INTO schema_migrations (version) VALUES ($1)", [String(i + 1)])
                applied.append(i + 1)
            }
            try db.execute("COMMIT", [])
            return applied
        } catch {
            _ = try? db.execute("ROLLBACK", [])
            throw error
        }
    }
}
