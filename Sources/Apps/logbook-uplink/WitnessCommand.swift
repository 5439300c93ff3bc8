// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookCore
import LogbookJournal
import LogbookPOSIX
import LogbookPostgres
import LogbookUplink

/// `logbook-uplink witness --store URL --device ID`: the checkpoints the fleet store keeps of
/// one device, one checkpoint message per line (the format of the MQTT `…/checkpoints` topic).
/// `logbook verify --witness postgres://…` runs it, so the CLI links no libpq.
struct WitnessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "witness",
        abstract: "Print a device's checkpoints kept in the fleet store, one JSON message per line.")

    @Option(name: .customLong("store"), help: "The fleet store: postgres://… or a libpq key=value string.")
    var store: String

    @Option(name: .customLong("device"), help: "The device id whose checkpoints to print.")
    var device: String

    func run() throws {
        let rows: [[String?]]
        do {
            rows = try PostgresConnection(url: store).execute("""
                SELECT seq, encode(head, 'hex'), gps_time_ns, monotonic_ns, encode(signature, 'hex'), encode(public_key, 'hex')
                FROM checkpoints WHERE device_id = $1 ORDER BY seq
                """, [device])
        } catch {
            UplinkCommand.printError("logbook-uplink witness: \(error)")
            throw ExitCode(69)  // EX_UNAVAILABLE
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
    }
}
