// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookGarage
import LogbookPOSIX
import LogbookSettings

/// Runs a `[hooks]` command the way logbookd runs the trip hooks: `/bin/sh -c HOOK` with the
/// process environment plus `LOGBOOK_*` variables, ended after `[hooks] timeout_s`.
enum HookRunner {
    static func run(_ hook: String, name: String, environment extra: [String: String], timeout: Double) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", hook]
        p.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        do {
            try p.run()
            let deadline = Date().addingTimeInterval(timeout)
            while p.isRunning, Date() < deadline { usleep(20_000) }
            if p.isRunning { p.terminate() }
        } catch {
            IndexAccess.note("\(name) hook did not start: \(error)")
        }
    }
}

/// `[hooks] on_unclassified`: at most once a day (24 h after its last run, kept in
/// `<state-dir>/unclassified-hook.last`), when trips wait for a classification.
enum UnclassifiedHook {
    static let interval = 86_400.0

    static func runIfDue(_ waiting: UnclassifiedTrips, settings: ReaderSettings, now: GPSTime) {
        guard let hook = settings.daemon.hookOnUnclassified, waiting.count > 0 else { return }
        let path = settings.stateDirectory + "/unclassified-hook.last"
        if let text = try? String(contentsOfFile: path, encoding: .utf8),
            let last = ISO8601.parse(text.trimmingCharacters(in: .whitespacesAndNewlines)),
            Double(now.nanoseconds - last.nanoseconds) / 1e9 < interval
        {
            return
        }
        // Noted before it runs: a hook that hangs or fails is not retried within the day.
        do {
            try AtomicFile.replace(path, with: Array((ISO8601.format(now) + "\n").utf8), mode: 0o644)
        } catch {
            return IndexAccess.note("on_unclassified not run: \(path): \(error)")
        }
        HookRunner.run(hook, name: "on_unclassified", environment: [
            "LOGBOOK_EVENT": "unclassified", "LOGBOOK_UNCLASSIFIED_COUNT": String(waiting.count),
            "LOGBOOK_UNCLASSIFIED_OLDEST_TRIP": waiting.oldest.map(\.description) ?? "",
            "LOGBOOK_UNCLASSIFIED_OLDEST_ENDED_AT": waiting.oldestEndedAt.map(ISO8601.format) ?? "",
            "LOGBOOK_UNCLASSIFIED_OLDEST_AGE_S": waiting.oldestAge.map { String(Int($0)) } ?? "",
        ], timeout: settings.daemon.hookTimeout)
    }
}
