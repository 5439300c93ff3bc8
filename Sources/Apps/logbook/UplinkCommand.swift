// SPDX-License-Identifier: MIT
import ArgumentParser
import Foundation
import LogbookConfig
import LogbookCore
import LogbookJournal
import LogbookUplink

/// `logbook uplink status [--json]`: each sink's cursor, lag (records and seconds) and last error.
struct UplinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uplink", abstract: "The uplink to MQTT and PostgreSQL.", subcommands: [Status.self])

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Show each sink's cursor, lag and last error.")

        @OptionGroup var paths: PathOptions


        @Option(name: .customLong("uplink-dir"), help: "The uplink's state directory (cursors).")
        var uplinkDir: String?

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        /// A status report older than this means the uplink is not running (it writes every 2 s).
        static let staleAfter = 15.0

        func run() async throws {
            try await withExitCodes {
                let c = try UplinkCommand.configuration(file: paths.config, paths: paths, uplinkDir: uplinkDir)
                let now = Double(UplinkClock.wallNanoseconds()) / 1e9
                var rows: [JSONValue] = []
                var lines: [String] = []
                var running = false
                for sink in ["mqtt", "postgres", "owntracks", "overland", "osmand"] {
                    let cursor = try? CursorStore(directory: c.stateDirectory).load(sink: sink)
                    let statusPath = UplinkStatus.path(runtimeDirectory: c.runtimeDirectory, sink: sink)
                    let status = (try? AtomicFile.read(statusPath)).flatMap { $0 }
                        .flatMap { try? JSONValue.parse($0) }.flatMap(UplinkStatus.init(json:))
                    guard cursor != nil || status != nil else { continue }
                    let age = status.map { now - Double($0.updatedAt) / 1e9 }
                    let fresh = (age ?? .infinity) < Self.staleAfter && status?.state != "stopped"
                    running = running || fresh
                    // The lag from the journal itself, so it is right even while the uplink is down;
                    // without the cursor (its directory is the uplink's own, 0700) from the status.
                    let position = cursor?.position ?? JournalPosition(sequence: status?.cursor ?? 0)
                    var journalSequence = status?.journalSequence ?? 0
                    var lagRecords = status?.lagRecords ?? 0
                    var lagSeconds = status?.lagSeconds ?? 0
                    if let cursor {
                        var probe = JournalHeadProbe(directory: c.journalDirectory, after: cursor.position, pointTime: cursor.lastPointTime)
                        try? probe.advance(maxReads: 100_000)
                        journalSequence = probe.sequence
                        lagRecords = probe.sequence > position.sequence ? probe.sequence - position.sequence : 0
                        // Nothing delivered yet: the lag runs from the first point waiting.
                        let since = cursor.lastPointTime ?? probe.firstPointTime ?? probe.pointTime
                        lagSeconds = lagRecords == 0 ? 0 : max(0, (probe.pointTime?.seconds ?? 0) - (since?.seconds ?? 0))
                    }
                    let error = status?.lastError
                    let errorAge = status?.lastErrorAt.map { now - Double($0) / 1e9 }
                    rows.append(.object([
                        ("sink", .string(sink)), ("device_id", .string(cursor?.deviceID ?? status?.deviceID)),
                        ("cursor", .number(Double(position.sequence))), ("journal_seq", .number(Double(journalSequence))),
                        ("lag_records", .number(Double(lagRecords))), ("lag_seconds", .number(lagSeconds)),
                        ("running", .bool(fresh)), ("connected", .bool(fresh && (status?.connected ?? false))),
                        ("state", .string(fresh ? status?.state : "not running")),
                        ("status_age_s", .number(age)), ("last_error", .string(error)), ("last_error_age_s", .number(errorAge)),
                    ]))
                    var line = "\(sink): cursor \(position.sequence), lag \(lagRecords) records / \(Self.duration(lagSeconds))"
                    if fresh, let s = status {
                        line += ", \(s.connected ? "connected" : "not connected"), \(s.state)"
                    } else {
                        line += ", not running" + (age.map { " (last report \(Self.duration($0)) ago)" } ?? "")
                    }
                    lines.append(line)
                    lines.append("  last error: " + (error.map { e in e + (errorAge.map { " (\(Self.duration($0)) ago)" } ?? "") } ?? "none"))
                }
                guard !rows.isEmpty else {
                    throw CLIError.unavailable("the uplink has not run yet: no cursor in \(c.stateDirectory)")
                }
                if json {
                    print(JSONValue.object([("journal", .string(c.journalDirectory)), ("sinks", .array(rows))]).serialized)
                } else {
                    let device = rows.first?["device_id"]?.stringValue ?? "?"
                    print("uplink for device \(device), journal \(c.journalDirectory)")
                    for l in lines { print(l) }
                }
                if !running { throw CLIError.unavailable("logbook-uplink is not running") }
            }
        }

        static func duration(_ s: Double) -> String {
            if s < 90 { return "\(Int(s.rounded())) s" }
            if s < 5400 { return "\(Int((s / 60).rounded())) min" }
            if s < 172_800 { return String(format: "%.1f h", s / 3600) }
            return String(format: "%.1f d", s / 86400)
        }
    }

    /// The `[uplink]` settings, with `--state-dir` (the daemon's) and `--uplink-dir` applied.
    static func configuration(file: String?, paths: PathOptions, uplinkDir: String?) throws -> UplinkConfiguration {
        do {
            var c = try UplinkConfiguration.load(file: file, environment: ProcessInfo.processInfo.environment)
            if paths.stateDir != nil || ProcessInfo.processInfo.environment["LOGBOOK_STATE_DIR"] != nil {
                c.journalDirectory = try ReaderSettings.load(paths).journalDirectory
            }
            if let d = uplinkDir { c.stateDirectory = d }
            return c
        } catch {
            FileHandle.standardError.write(Data("logbook: config error: \(error)\n".utf8))
            throw ExitCodes.config
        }
    }
}
