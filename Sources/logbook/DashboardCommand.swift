// SPDX-License-Identifier: MIT
import ArgumentParser
import Foundation
import LogbookCore
import LogbookDaemon
import LogbookGarage
import LogbookStore

/// `logbook dashboard refresh`: catches up the index and rewrites `<runtime-dir>/dashboard.json`
/// atomically. logbookd runs it after trip ends and garage writes; the CLI after a write it
/// made itself (no daemon running).
struct DashboardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard", abstract: "The dashboard.json snapshot for panels and shortcuts.", subcommands: [DashboardRefreshCommand.self])
}

struct DashboardRefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "refresh", abstract: "Rewrite dashboard.json now.")
    @OptionGroup var paths: PathOptions
    @Flag(help: "Print nothing on success.") var quiet = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let path = try Dashboard.refresh(settings)
            if !quiet { print("dashboard: \(path)") }
        }
    }
}

enum Dashboard {
    /// The file's path for these settings.
    static func path(_ settings: ReaderSettings) -> String { settings.daemon.runtimeDirectory + "/dashboard.json" }

    /// Builds the document from the caught-up index and replaces the file; returns its path.
    @discardableResult
    static func refresh(_ settings: ReaderSettings) throws -> String {
        let now = GarageAccess.wallClock()
        let document = try IndexAccess.withIndex(settings) { index -> JSONValue in
            let garage = try GarageAccess.load(index, settings: settings)
            func stats(_ name: String) throws -> GarageStats {
                guard let range = StatsRange.named(name, now: now) else { throw CLIError.usage("range \(name)") }
                let km = try index.distanceByVehicle(since: range.since, until: range.until).mapValues { $0 / 1000 }
                return GarageStats(garage: garage, range: range, tripKm: km)
            }
            return DashboardDocument.make(
                all: try stats("all"), month: try stats("month"), generatedAt: now, indexedThrough: try index.indexedPosition().sequence)
        }
        let path = path(settings)
        try? FileManager.default.createDirectory(atPath: settings.daemon.runtimeDirectory, withIntermediateDirectories: true)
        let file = try AtomicOutputFile(path: path)
        try Array((document.serialized + "\n").utf8).withUnsafeBytes { try file.sink.write($0) }
        try file.commit()
        return path
    }
}
