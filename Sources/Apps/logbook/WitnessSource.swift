// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookPostgres
import LogbookUplink

/// Where `logbook verify --witness` reads the checkpoints kept off the device: the fleet
/// store (`postgres://…` or a libpq `key=value` string) or a file of checkpoint messages
/// collected from MQTT (one JSON object per line, as published on `…/checkpoints`).
enum WitnessSource {
    /// True for a PostgreSQL connection string.
    static func isPostgres(_ s: String) -> Bool {
        s.hasPrefix("postgres://") || s.hasPrefix("postgresql://") || s.contains("dbname=") || s.contains("host=")
    }

    /// The witness checkpoints of `device`, and a short description of where they came from.
    static func checkpoints(from source: String, device: String) throws -> ([JournalCheckpoint], String) {
        if isPostgres(source) {
            let db: PostgresConnection
            do { db = try PostgresConnection(url: source) } catch {
                throw CLIError.unavailable("witness: \(error)")
            }
            let rows = try db.execute("""
                SELECT seq, encode(head, 'hex'), gps_time_ns, monotonic_ns, encode(signature, 'hex'), encode(public_key, 'hex')
                FROM checkpoints WHERE device_id = $1 ORDER BY seq
                """, [device])
            let cps = rows.compactMap { r -> JournalCheckpoint? in
                guard r.count == 6, let seq = r[0].flatMap({ UInt64($0) }), let head = r[1].flatMap(Hex.decode),
                    let mono = r[3].flatMap({ UInt64($0) }), let sig = r[4].flatMap(Hex.decode), let key = r[5].flatMap(Hex.decode)
                else { return nil }
                return JournalCheckpoint(sequence: seq, head: head, gpsTime: r[2].flatMap { Int64($0) }.map { GPSTime(nanoseconds: $0) },
                                         monotonicNanoseconds: mono, signature: sig, publicKey: key)
            }
            return (cps, "the fleet store")
        }
        guard let data = FileManager.default.contents(atPath: source) else {
            throw CLIError.usage("witness: cannot read \(source)")
        }
        var cps: [JournalCheckpoint] = []
        var other = 0
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            guard let j = try? JSONValue.parse(line), let (d, cp) = MQTTPayloads.checkpoint(fromJSON: j) else {
                throw CLIError.usage("witness: \(source) holds a line that is not a checkpoint message")
            }
            if d == device { cps.append(cp) } else { other += 1 }
        }
        return (cps, "\(source)" + (other > 0 ? " (\(other) of other devices skipped)" : ""))
    }
}
