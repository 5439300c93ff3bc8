// SPDX-License-Identifier: MIT
import ArgumentParser
import Foundation
import LogbookCore
import LogbookPOSIX
import LogbookGarage
import LogbookGarageStore
import LogbookSettings
import LogbookStore

/// `logbook dashboard refresh`: applies the classification rules to trips that ended since
/// the last run (``RuleApplier/atTripEnd(_:)``), catches up the index and rewrites `<runtime-dir>/dashboard.json`
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
            // The trips that ended since the last refresh get the first matching rule's class.
            await RuleApplier.atTripEnd(settings)
            let path = try Dashboard.refresh(settings)
            if !quiet { print("dashboard: \(path)") }
        }
    }
}

enum Dashboard {
    /// Tasks that are due now but were not in the previous file: one line on stderr each
    /// (logbookd logs its child's output to the journal) and `[hooks] on_service_due`.
    static func announceNewlyDue(_ due: [ServiceDue], previous path: String, settings: ReaderSettings) {
        var before: [String: String] = [:]
        if let data = FileManager.default.contents(atPath: path), let old = try? JSONValue.parse(Array(data)),
            case .array(let tasks)? = old["service"]
        {
            for t in tasks { if let id = t["task"]?.stringValue { before[id] = t["state"]?.stringValue } }
        }
        for d in due where d.state == .overdue || d.state == .dueSoon {
            guard before[d.task.id] != d.state.rawValue, !(before[d.task.id] == "overdue" && d.state == .dueSoon) else { continue }
            IndexAccess.note("service \(d.state == .overdue ? "overdue" : "due soon"): \(d.task.vehicle) \(d.task.name) (task \(d.task.id))")
            guard let hook = settings.daemon.hookOnServiceDue else { continue }
            HookRunner.run(hook, name: "on_service_due", environment: [
                "LOGBOOK_EVENT": "service_due", "LOGBOOK_SERVICE_TASK": d.task.id, "LOGBOOK_SERVICE_NAME": d.task.name,
                "LOGBOOK_VEHICLE": d.task.vehicle, "LOGBOOK_SERVICE_STATE": d.state.rawValue,
                "LOGBOOK_SERVICE_DUE_AT": d.dueAt.map(ISO8601.format) ?? "",
                "LOGBOOK_SERVICE_DUE_KM": d.dueKm.map { NumberText.fixed($0, places: 0) } ?? "",
            ], timeout: settings.daemon.hookTimeout)
        }
    }

    /// The file's path for these settings.
    static func path(_ settings: ReaderSettings) -> String { settings.daemon.runtimeDirectory + "/dashboard.json" }

    /// Builds the document from the caught-up index and replaces the file; returns its path.
    @discardableResult
    static func refresh(_ settings: ReaderSettings) throws -> String {
        let now = GarageAccess.wallClock()
        var due: [ServiceDue] = []
        var unclassified: UnclassifiedTrips?
        let document = try IndexAccess.withIndex(settings) { index -> JSONValue in
            let garage = try GarageAccess.load(index, settings: settings, types: GarageAccess.withoutClassifications)
            func stats(_ name: String) throws -> GarageStats {
                guard let range = StatsRange.named(name, now: now) else { throw CLIError.usage("range \(name)") }
                let km = try index.distanceByVehicle(since: range.since, until: range.until).mapValues { $0 / 1000 }
                return GarageStats(garage: garage, range: range, tripKm: km)
            }
            due = try ServiceCommand.due(index, garage, now: now)
            unclassified = try GarageStore.unclassified(index, now: now)
            let made = DashboardDocument.make(
                all: try stats("all"), month: try stats("month"), generatedAt: now, indexedThrough: try index.indexedPosition().sequence)
            guard case .object(let members) = made else { return made }
            return .object(members + [("service", .array(due.map(\.json))), ("unclassified", unclassified?.json ?? .null)])
        }
        let path = path(settings)
        announceNewlyDue(due, previous: path, settings: settings)
        if let unclassified { UnclassifiedHook.runIfDue(unclassified, settings: settings, now: now) }
        try? FileManager.default.createDirectory(atPath: settings.daemon.runtimeDirectory, withIntermediateDirectories: true)
        // 0644 exactly, whatever the umask: others read it (the web app), nobody else writes it.
        do {
            try AtomicFile.replace(path, with: Array((document.serialized + "\n").utf8), mode: 0o644)
        } catch {
            throw CLIError.problem(error.description)
        }
        return path
    }
}
