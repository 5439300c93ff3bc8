// SPDX-License-Identifier: MIT
import Foundation
import LogbookControl
import LogbookCore
import LogbookGarage
import LogbookGarageStore
import LogbookJournal
import LogbookRecords
import LogbookSettings
import LogbookStore

/// How the garage commands read and write: the garage is projected from the index's entries;
/// a write is validated (shape, then against the garage), then sent to logbookd, or appended
/// to the journal directly when no daemon runs. Both paths append the same entry.
enum GarageAccess {
    /// The garage as the caught-up index holds it, with the configured vehicles.
    static func load(_ index: TripIndex, settings: ReaderSettings, types: [String] = Garage.entryTypes) throws -> Garage {
        var garage = try GarageStore.garage(index, configured: settings.daemon.vehicles, types: types)
        garage.units = settings.units
        return garage
    }

    /// The entry id `typed` means (a short number such as `#12`, or an id as it is):
    /// ``Garage/resolve(_:_:)``; an unknown number exits 64 naming it.
    static func resolve(_ typed: String, _ kind: ShortNumberKind, settings: ReaderSettings) throws -> String {
        guard FileManager.default.fileExists(atPath: settings.journalDirectory) else { return typed }
        do {
            return try IndexAccess.withIndex(settings) { try load($0, settings: settings, types: GarageAccess.withoutClassifications).resolve(typed, kind) }
        } catch let problem as EntryProblem {
            throw CLIError.usage(problem.message)
        }
    }

    /// A fill-up's currency when none is given: `[units] currency`, else the vehicle's last
    /// fill-up's (``Garage/defaultCurrency(vehicle:configured:)``); nil when neither exists.
    static func defaultCurrency(vehicle: String?, settings: ReaderSettings) throws -> String? {
        if let configured = settings.reader.currency { return configured }
        guard FileManager.default.fileExists(atPath: settings.journalDirectory) else { return nil }
        return try IndexAccess.withIndex(settings) {
            try load($0, settings: settings, types: [VehicleRecord.type, FuelRecord.type]).defaultCurrency(vehicle: vehicle, configured: nil)
        }
    }

    /// Every garage entry type but trip classifications.
    static let withoutClassifications = GarageStore.withoutClassifications

    /// What a write did.
    struct Written {
        var entry: RecordEntry
        var sequence: UInt64
        var throughDaemon: Bool
        /// The daemon's reply line, when it answered.
        var reply: String?
    }

    /// Validates and records one entry made from `fields` (`cmd` and `origin` are added).
    ///
    /// Bad input exits 64 with the reason and writes nothing; a daemon refusal exits 1.
    /// - Parameter force: log a fill-up like one already logged (``Garage/duplicateFill(of:)``).
    static func write(_ name: String, _ fields: [(String, JSONValue)], settings: ReaderSettings, paths: PathOptions, force: Bool = false) async throws -> Written {
        guard let command = EntryCommand.named(name) else { throw CLIError.usage("unknown command \(name)") }
        let now = wallClock()
        var request: [(String, JSONValue)] = [("cmd", .string(name))] + fields.filter { !$0.1.isNull } + [("origin", .string("cli"))]
        // The time is fixed here, so the daemon records the same entry the direct path would.
        if command.action == .add, command.type == "fuel" || command.type == "odometer", !request.contains(where: { $0.0 == "at" }) {
            request.append(("at", .string(ISO8601.format(now))))
        }
        let entry: RecordEntry
        do {
            entry = try command.draft(.object(request), now: now)
            if FileManager.default.fileExists(atPath: settings.journalDirectory) {
                try IndexAccess.withIndex(settings) { index in
                    try load(index, settings: settings).check(entry, trips: index, allowDuplicateFill: force)
                }
            } else {
                // The first write makes the journal: only the configured vehicles exist yet.
                try Garage(configured: settings.daemon.vehicles, entries: []).check(entry, trips: NoTrips())
            }
        } catch let problem as EntryProblem {
            throw CLIError.usage(problem.message)
        }
        if let client = try? ControlClient(socketPath: settings.daemon.controlSocketPath) {
            do {
                let (reply, text) = try client.call(.object(request))
                let sequence = UInt64(reply["seq"]?.doubleValue ?? 0)
                var written = entry
                if let fields = reply["fields"] { written.fields = fields }
                return Written(entry: written, sequence: sequence, throughDaemon: true, reply: text)
            } catch {
                throw error.cliError
            }
        }
        do {
            let appended = try await EntryAppender.append(
                [entry], recordedAt: now, journalDirectory: settings.journalDirectory, stateDirectory: settings.stateDirectory)
            // No daemon to do it: this command rewrites dashboard.json (a failure is only noted).
            do {
                try Dashboard.refresh(settings)
            } catch {
                IndexAccess.note("dashboard.json not updated: \(error)")
            }
            return Written(entry: appended.first?.entry ?? entry, sequence: appended.first?.sequence ?? 0, throughDaemon: false, reply: nil)
        } catch {
            throw CLIError.problem(error.description)
        }
    }

    /// Records entries already validated and checked (an import): through logbookd on one
    /// connection, else with one journal lock for all. Returns how many and which path.
    static func writeMany(_ entries: [(RecordEntry, [(String, JSONValue)])], settings: ReaderSettings) async throws -> (Int, Bool) {
        guard !entries.isEmpty else { return (0, false) }
        if let client = try? ControlClient(socketPath: settings.daemon.controlSocketPath) {
            var done = 0
            do {
                for (_, request) in entries {
                    _ = try client.call(.object(request))
                    done += 1
                }
            } catch {
                throw CLIError.problem("\(error.description) after \(done) of \(entries.count) rows were recorded")
            }
            return (done, true)
        }
        do {
            _ = try await EntryAppender.append(entries.map(\.0), recordedAt: wallClock(), journalDirectory: settings.journalDirectory, stateDirectory: settings.stateDirectory)
        } catch {
            throw CLIError.problem(error.description)
        }
        do {
            try Dashboard.refresh(settings)
        } catch {
            IndexAccess.note("dashboard.json not updated: \(error)")
        }
        return (entries.count, false)
    }

    /// Prints what was written: the daemon's reply with `--json`, else one line.
    /// The usual write command: loads the settings, writes `name` with `fields`
    /// (``write(_:_:settings:paths:)``) and reports it (``report(_:json:what:)``).
    static func writeAndReport(
        _ name: String, _ fields: [(String, JSONValue)], paths: PathOptions, json: Bool, what: (Written) -> String
    ) async throws {
        let settings = try ReaderSettings.load(paths)
        let w = try await write(name, fields, settings: settings, paths: paths)
        report(w, json: json, what: what(w))
    }

    static func report(_ w: Written, json: Bool, what: String) {
        if json {
            print(w.reply ?? JSONValue.object([
                ("ok", .bool(true)), ("seq", .number(Double(w.sequence))), ("type", .string(w.entry.type)),
                ("action", .string(w.entry.action.rawValue)), ("subject", .string(w.entry.subject)),
            ]).serialized)
        } else {
            print("\(what) (seq \(w.sequence), \(w.throughDaemon ? "through logbookd" : "written to the journal; logbookd is not running")).")
        }
    }

    static func wallClock() -> GPSTime {
        GPSTime(nanoseconds: Int64((Date().timeIntervalSince1970 * 1e9).rounded()))
    }
}

/// Before the first write there is no journal, so no trip.
struct NoTrips: TripLookup {
    func trip(_ number: TripID) -> TripOverview? { nil }
    func nextTrip(after number: TripID) -> TripOverview? { nil }
}

extension JSONValue {
    /// `.number` for a set option, `.null` otherwise (dropped from requests).
    static func option(_ value: Double?) -> JSONValue { value.map(JSONValue.number) ?? .null }
    static func option(_ value: Int?) -> JSONValue { value.map { .number(Double($0)) } ?? .null }
    static func option(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
}
