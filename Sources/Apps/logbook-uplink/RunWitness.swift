// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookJournal
import LogbookPOSIX
import LogbookPostgres
import LogbookUplink

/// `logbook-uplink witness --store URL --device ID`: the checkpoints the fleet store keeps of
/// one device, one checkpoint message per line (the format of the MQTT `…/checkpoints` topic).
/// `logbook verify --witness postgres://…` runs it, so the CLI links no libpq.
enum RunWitness {
    /// The exit status: 69 (EX_UNAVAILABLE) when the store cannot be read.
    static func run(store: String, device: String) -> Int32 {
        let rows: [[String?]]
        do {
            rows = try PostgresConnection(url: store).execute("""
                SELECT seq, encode(head, 'hex'), gps_time_ns, monotonic_ns, encode(signature, 'hex'), encode(public_key, 'hex')
                FROM checkpoints WHERE device_id = $1 ORDER BY seq
                """, [device])
        } catch {
            RunUplink.printError("logbook-uplink witness: \(error)")
            return 69
        }
        for r in rows {
            guard r.count == 6, let seq = r[0].flatMap({ UInt64($0) }), let head = r[1].flatMap(Hex.decode),
                let mono = r[3].flatMap({ UInt64($0) }), let sig = r[4].flatMap(Hex.decode), let key = r[5].flatMap(Hex.decode)
            else { continue }
            let cp = JournalCheckpoint(
                sequence: seq, head: head, gpsTime: r[2].flatMap { Int64($0) }.map { GPSTime(nanoseconds: $0) },
                monotonicNanoseconds: mono, signature: sig, publicKey: key)
            print(MQTTPayloads.checkpointJSON(cp, device: device).serialized)
        }
        return 0
    }
}
