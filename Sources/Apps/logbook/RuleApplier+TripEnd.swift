// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookPOSIX
import LogbookRecords
import LogbookSettings
import LogbookStore

extension RuleApplier {
    /// `<state-dir>/rules.cursor`: the newest trip number the trip-end rules have looked at.
    static func cursorPath(_ settings: ReaderSettings) -> String { settings.stateDirectory + "/rules.cursor" }

    /// The rules at trip end (`logbook dashboard refresh`, which logbookd runs after every trip
    /// end): each closed trip newer than the cursor that nobody classified yet gets the first
    /// matching rule's classification. Without a cursor (the first run) only the newest trip
    /// is looked at: the past is `rules apply`'s, asked for. Problems are only noted (the
    /// dashboard is refreshed all the same). Returns how many trips were classified.
    @discardableResult
    static func atTripEnd(_ settings: ReaderSettings) async -> Int {
        guard !settings.daemon.rules.isEmpty || FileManager.default.fileExists(atPath: settings.journalDirectory) else { return 0 }
        let path = cursorPath(settings)
        let cursor = (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        do {
            let (changes, newest) = try IndexAccess.withIndex(settings) { index -> ([RuleBook.Change], TripID?) in
                let context = try context(settings, index, since: nil)
                guard let newest = context.trips.last?.number else { return ([], nil) }
                let fresh = context.trips.filter { t in cursor.map { t.number.rawValue > $0 } ?? (t.number == newest) }
                guard !context.rules.isEmpty else { return ([], newest) }
                return (RuleBook.plan(context.rules, trips: fresh, current: context.current, onlyUnclassified: true), newest)
            }
            let written = try await write(changes, settings: settings)
            for c in changes { IndexAccess.note("trip \(c.trip) classified \(c.classification.tripClass) by rule \(c.rule)") }
            if let newest, newest.rawValue != cursor {
                try AtomicFile.replace(path, with: Array("\(newest.rawValue)\n".utf8), mode: 0o644)
            }
            return written
        } catch {
            IndexAccess.note("classification rules not applied: \(error)")
            return 0
        }
    }
}
