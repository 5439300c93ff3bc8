// SPDX-License-Identifier: MIT
import ArgumentParser
import Foundation
import LogbookControl
import LogbookCore
import LogbookGarage
import LogbookImport
import LogbookSettings
import LogbookStore

/// `logbook import FILE… [--vehicle V] [--format gpx|geojson|csv|google-timeline] [--dry-run]
/// [--allow-overlap] [--skip-bad]`: a history from another app or logger becomes trips, cut by
/// the daemon's own trip rules, each marked as imported (start reason `import:FORMAT`).
///
/// Each file is read twice: first to check all of it and find its trips (a bad item anywhere
/// means nothing of the file is written, unless `--skip-bad`), then to write the trips.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import a track history (GPX, GeoJSON, CSV, Google location history) as trips.")

    @OptionGroup var paths: PathOptions
    @Argument(help: "The files.") var files: [String]
    @Option(help: "The vehicle the trips belong to (else the one a Logbook export names).") var vehicle: String?
    @Option(help: "gpx, geojson, csv or google-timeline (default: from the file's content).") var format: String?
    @Flag(name: .customLong("dry-run"), help: "Check the files and show the trips; write nothing.") var dryRun = false
    @Flag(name: .customLong("allow-overlap"), help: "Import trips that overlap trips already in the journal.") var allowOverlap = false
    @Flag(name: .customLong("skip-bad"), help: "Import what is good and report every item skipped.") var skipBad = false

    func validate() throws {
        if let format, ImportFormat(rawValue: format) == nil {
            throw ValidationError("--format must be gpx, geojson, csv or google-timeline")
        }
    }

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            if let vehicle {
                // The first write makes the journal: only the configured vehicles exist yet.
                let known = Self.hasJournal(settings)
                    ? try IndexAccess.withIndex(settings) { try GarageAccess.load($0, settings: settings).vehicle(vehicle) != nil }
                    : settings.daemon.vehicle(vehicle) != nil
                guard known else { throw CLIError.usage("no vehicle \"\(vehicle)\" (configure it or `logbook vehicles add \(vehicle)`)") }
            }
            var failed = 0
            for file in files {
                if try await importFile(file, settings) == false { failed += 1 }
            }
            if failed > 0 { throw CLIError.problem("\(failed) of \(files.count) file\(files.count == 1 ? "" : "s") not imported") }
        }
    }

    /// Imports one file; false when it was refused.
    private func importFile(_ file: String, _ settings: ReaderSettings) async throws -> Bool {
        let name = (file as NSString).lastPathComponent
        guard let handle = FileHandle(forReadingAtPath: file) else {
            IndexAccess.note("\(file): cannot read it")
            return false
        }
        let prefix = [UInt8](handle.readData(ofLength: 65_536))
        try? handle.close()
        guard let chosen = format.flatMap(ImportFormat.init(rawValue:)) ?? ImportFormat.sniff(prefix: prefix, fileName: file) else {
            IndexAccess.note("\(file): cannot tell the format from its content; give --format gpx|geojson|csv|google-timeline")
            return false
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int64) ?? 0
        let pass = ImportPass(format: chosen, vehicle: vehicle, trip: settings.daemon.trip)
        let bar = ImportProgress(name: name, size: size, tty: isatty(STDERR_FILENO) != 0)

        // Pass 1: check everything, find the trips.
        bar.phase = "checking"
        let scan: ImportSummary
        do {
            scan = try await pass.run(try ByteInput(path: file), stopOnIssue: false, progress: bar.show)
        } catch let issue as ImportIssue {
            bar.finish()
            IndexAccess.note("\(file): \(issue.message)")
            return false
        }
        bar.finish()
        for issue in scan.issues.prefix(skipBad ? .max : 20) {
            IndexAccess.note("\(file)\(issue.line.map { ":\($0)" } ?? ""): \(skipBad ? "skipped: " : "")\(issue.message)")
        }
        if !scan.issues.isEmpty, !skipBad {
            if scan.issues.count > 20 { IndexAccess.note("\(file): … and \(scan.issues.count - 20) more") }
            let noPoints = scan.positionsRead == 0
            IndexAccess.note("\(file): \(scan.issues.count) bad item\(scan.issues.count == 1 ? "" : "s"); nothing imported\(noPoints ? "" : " (--skip-bad imports the rest)")")
            return false
        }
        if scan.positionsRead == 0 {
            IndexAccess.note("\(file): no positions to import")
            return false
        }

        // Against the journal (through the index): the same content, overlapping trips.
        let (previous, overlaps) = Self.hasJournal(settings)
            ? try IndexAccess.withIndex(settings) { index in
                (try ImportChecks.previousImport(index, hash: scan.contentHash), allowOverlap ? [:] : try ImportChecks.overlaps(index, scan.trips))
            } : (nil, [:])
        if let (seq, earlier) = previous {
            print("import: \(name): 0 trips, 0 points, 0 skipped")
            print("  already imported: the same content as \(earlier) (journal seq \(seq)); nothing to do")
            return true
        }
        for (i, ids) in overlaps.sorted(by: { $0.key < $1.key }) {
            let t = scan.trips[i]
            IndexAccess.note("\(file):\(t.firstLine): trip of \(t.startedAt.map { ISO8601.format($0) } ?? "?") overlaps trip\(ids.count == 1 ? "" : "s") \(ids.map(\.description).joined(separator: ", ")) in the journal; not imported (--allow-overlap imports it)")
        }
        let written = scan.trips.filter { overlaps[$0.index] == nil }
        let skipped = scan.issues.count + overlaps.count
        if dryRun {
            report(name, scan, written: written, ids: [], skipped: skipped, path: "dry run: nothing written")
            return true
        }

        // Pass 2: write the trips.
        let journal = try await ImportJournalPath.open(settings)
        var ids: [UInt64] = []
        var current: UInt64 = 0
        bar.phase = "importing"
        let second: ImportSummary
        do {
            second = try await pass.run(try ByteInput(path: file), skip: Set(overlaps.keys), progress: bar.show) { output in
                switch output {
                case .tripStarted(let v, let reason, let time):
                    let reply = try await journal.call([
                        ("cmd", .string("import.begin")), ("vehicle", .string(v)), ("reason", .string(reason)),
                        ("started_at", .string(time.map { ISO8601.format($0) })),
                    ])
                    current = UInt64(reply["trip"]?.doubleValue ?? 0)
                    ids.append(current)
                case .points(let points):
                    let (t0, rows) = ImportWire.encode(points)
                    _ = try await journal.call([
                        ("cmd", .string("import.points")), ("trip", .number(Double(current))), ("t0", .number(Double(t0))), ("points", rows),
                    ])
                case .gap(let g):
                    _ = try await journal.call([
                        ("cmd", .string("import.gap")), ("trip", .number(Double(current))), ("from", .string(ISO8601.format(g.from))),
                        ("to", .string(ISO8601.format(g.to))),
                    ])
                case .tripEnded(let t):
                    _ = try await journal.call([
                        ("cmd", .string("import.end")), ("trip", .number(Double(current))), ("reason", .string(t.endReason)),
                        ("ended_at", .string(t.endedAt.map { ISO8601.format($0) })), ("distance_m", .number(t.distance)),
                        ("duration_s", .number(t.duration)), ("max_speed_mps", .number(t.maxSpeed)),
                        ("avg_speed_mps", .number(t.averageSpeed)), ("points", .number(Double(t.points))), ("discarded", .bool(t.discarded)),
                    ])
                }
            }
            let times = written.compactMap(\.startedAt) + written.compactMap(\.endedAt)
            _ = try await journal.call([
                ("cmd", .string("import.record")), ("hash", .string(second.contentHash)), ("file", .string(name)),
                ("format", .string(chosen.rawValue)), ("vehicle", .string(vehicle)), ("trips", .array(ids.map { .number(Double($0)) })),
                ("points", .number(Double(written.reduce(0) { $0 + $1.points }))), ("skipped", .number(Double(skipped))),
                ("first", .string(times.min().map { ISO8601.format($0) })), ("last", .string(times.max().map { ISO8601.format($0) })),
            ])
            bar.finish()
            try await journal.close()
        } catch {
            bar.finish()
            try? await journal.close()
            throw error
        }
        // Without a daemon this command rewrites dashboard.json, where one is kept (reading
        // the whole new history into the index: a step of its own, after the import).
        if !journal.throughDaemon, FileManager.default.fileExists(atPath: Dashboard.path(settings)) {
            do { try Dashboard.refresh(settings) } catch { IndexAccess.note("dashboard.json not updated: \(error)") }
        }
        report(name, second, written: written, ids: ids, skipped: skipped,
               path: journal.throughDaemon ? "written through logbookd" : "written to the journal; logbookd is not running")
        return true
    }

    static func hasJournal(_ settings: ReaderSettings) -> Bool {
        FileManager.default.fileExists(atPath: settings.journalDirectory)
    }

    private func report(_ name: String, _ s: ImportSummary, written: [ImportedTrip], ids: [UInt64], skipped: Int, path: String) {
        let kept = written.filter { !$0.discarded }
        print("import: \(name): \(kept.count) trips, \(written.reduce(0) { $0 + $1.points }) points, \(skipped) skipped")
        for (i, t) in written.enumerated() where !t.discarded {
            let id = i < ids.count ? "trip \(ids[i])" : "trip"
            let from = t.startedAt.map { ISO8601.format($0) } ?? "?"
            let to = t.endedAt.map { ISO8601.format($0) } ?? "?"
            print("  \(id): \(from) → \(to), \(String(format: "%.1f", t.distance / 1000)) km, \(t.points) points, ended by \(t.endReason)")
        }
        let discarded = written.count - kept.count
        var notes = ["\(s.format.rawValue)", "\(s.positionsRead) positions read"]
        if s.duplicates > 0 { notes.append("\(s.duplicates) repeated times dropped") }
        let refused = s.refused.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
        if !refused.isEmpty { notes.append("refused by the fix filter: \(refused.joined(separator: ", "))") }
        if discarded > 0 { notes.append("\(discarded) too short (recorded as discarded)") }
        print("  \(notes.joined(separator: "; ")); sha256 \(s.contentHash); \(path)")
    }
}

/// The import's progress bar on a terminal (stderr, redrawn in place); silent otherwise.
final class ImportProgress {
    let name: String
    let size: Int64
    let tty: Bool
    var phase = ""
    private var drawn = false

    init(name: String, size: Int64, tty: Bool) {
        self.name = name
        self.size = size
        self.tty = tty
    }

    func show(_ bytes: Int64) {
        guard tty, size > 0 else { return }
        let fraction = min(1, Double(bytes) / Double(size))
        let width = 30, filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        FileHandle.standardError.write(Data("\r\(name): \(phase) [\(bar)] \(Int(fraction * 100)) %".utf8))
        drawn = true
    }

    func finish() {
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
        drawn = false
    }
}
