// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookPOSIX
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
            let lines = try fleetStoreLines(source, device: device)
            return (try parse(lines, from: "the fleet store", device: device).0, "the fleet store")
        }
        guard let data = FileManager.default.contents(atPath: source) else {
            throw CLIError.usage("witness: cannot read \(source)")
        }
        let (cps, other) = try parse(data.split(separator: UInt8(ascii: "\n")), from: source, device: device)
        return (cps, "\(source)" + (other > 0 ? " (\(other) of other devices skipped)" : ""))
    }

    /// The checkpoints among `lines` (checkpoint messages) that are `device`'s, and how many were
    /// another device's.
    private static func parse(_ lines: [Data.SubSequence], from origin: String, device: String) throws -> ([JournalCheckpoint], Int) {
        var cps: [JournalCheckpoint] = []
        var other = 0
        for line in lines where !line.isEmpty {
            guard let j = try? JSONValue.parse(line), let (d, cp) = MQTTPayloads.checkpoint(fromJSON: j) else {
                throw CLIError.usage("witness: \(origin) holds a line that is not a checkpoint message")
            }
            if d == device { cps.append(cp) } else { other += 1 }
        }
        return (cps, other)
    }

    /// The fleet store's checkpoints of `device`, as `logbook-uplink witness` prints them: libpq
    /// and its TLS and Kerberos libraries stay out of every `logbook` command.
    private static func fleetStoreLines(_ url: String, device: String) throws -> [Data.SubSequence] {
        guard let uplink = SiblingExecutable.path("logbook-uplink") else {
            throw CLIError.unavailable("witness: reading the fleet store needs logbook-uplink beside logbook")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: uplink)
        p.arguments = ["witness", "--store", url, "--device", device]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        do { try p.run() } catch { throw CLIError.unavailable("witness: cannot run \(uplink): \(error)") }
        // Its output to the end, then its error (one line, far below a pipe's capacity).
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let why = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw CLIError.unavailable(why.isEmpty ? "witness: logbook-uplink witness exited with \(p.terminationStatus)" : why)
        }
        return data.split(separator: UInt8(ascii: "\n"))
    }
}
