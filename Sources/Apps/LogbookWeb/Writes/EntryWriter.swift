// SPDX-License-Identifier: MIT
internal import HTTPTypes
internal import LogbookCore
internal import LogbookGarage
internal import LogbookGarageStore
internal import LogbookJournal
internal import LogbookRecords
internal import LogbookStore
internal import Logging

extension WebApp {
    /// Records one entry the way `logbook` does (`GarageAccess.write`): the request is drafted
    /// (``EntryCommand/draft(_:now:)``: shape and ranges), checked against the logbook as the
    /// caught-up index holds it (``Garage/check(_:trips:)`` with the index answering for the
    /// trips; named places as `logbook places` checks them), then sent to logbookd, or — when
    /// nothing listens on the control socket — appended under the journal's lock
    /// (``EntryAppender``). Origin `web`. Returns the daemon's reply, or one of the same shape.
    ///
    /// - Throws: ``APIError``: 4xx with the message the CLI prints for the same refusal, 503
    ///   when neither logbookd nor the journal can take it.
    func record(_ name: String, _ fields: [(String, JSONValue)], allowDuplicateFill: Bool = false) async throws(APIError) -> JSONValue {
        guard let command = EntryCommand.named(name) else { throw APIError.notFound("no command \(name)") }
        let now = GPSClock.now()
        var request: [(String, JSONValue)] =
            [("cmd", .string(name))] + fields.filter { !$0.1.isNull && $0.0 != "origin" } + [("origin", .string(EntryOrigin.web))]
        // The time is fixed here, so the check and the daemon see the same entry.
        if command.action == .add, Self.timedTypes.contains(command.type), !request.contains(where: { $0.0 == "at" }) {
            request.append(("at", .string(ISO8601.format(now))))
        }
        let entry: RecordEntry
        do throws(EntryProblem) {
            entry = try command.draft(.object(request), now: now)
        } catch {
            throw Self.refusal(error)
        }
        try await check(entry, allowDuplicateFill: allowDuplicateFill)
        let reply: JSONValue
        switch try await control.deliver(.object(request)) {
        case .replied(let answer):
            reply = answer
        case .noDaemon(let why):
            reply = try await appendDirectly(entry, recordedAt: now, noDaemon: why)
        }
        shelf.invalidate()
        registry.invalidate()
        return reply
    }

    /// Entry types whose `at` defaults to now.
    static let timedTypes: Set<String> = [FuelRecord.type, OdometerRecord.type, ServiceDoneRecord.type]

    /// The checks `logbook` makes before it writes, against the index caught up now (a trip
    /// just stopped must be there to be corrected).
    private func check(_ entry: RecordEntry, allowDuplicateFill: Bool) async throws(APIError) {
        let configured = configuration.vehicles, units = configuration.units
        shelf.invalidate()
        try await shelf.read { index throws in
            if entry.type == PlaceRecord.type {
                let places = Set(try GarageStore.namedPlaces(index).keys)
                do throws(EntryProblem) { try Self.checkPlace(entry, places: places) } catch { throw Self.refusal(error) }
                return
            }
            var garage = try GarageStore.garage(index, configured: configured, types: GarageStore.withoutClassifications)
            garage.units = units
            do throws(EntryProblem) { try garage.check(entry, trips: index, allowDuplicateFill: allowDuplicateFill) } catch { throw Self.refusal(error) }
        }
    }

    /// `logbook places add/edit/remove`'s checks, with its messages.
    static func checkPlace(_ entry: RecordEntry, places: Set<String>) throws(EntryProblem) {
        let exists = places.contains(entry.subject)
        if entry.action == .add, exists {
            throw EntryProblem("duplicate", "place \(entry.subject) exists already (use places edit)")
        }
        if entry.action != .add, !exists {
            throw EntryProblem("unknown_entry", "no place \(entry.subject) (see places list)")
        }
    }

    /// The CLI's path without a daemon: the journal's writer lock for the moment of the write.
    private func appendDirectly(_ entry: RecordEntry, recordedAt: GPSTime, noDaemon: String) async throws(APIError) -> JSONValue {
        do throws(EntryAppender.Failure) {
            // Blocks a pool thread for the append and its fsync: one write per button press.
            let appended = try await EntryAppender.append(
                [entry], recordedAt: recordedAt, journalDirectory: configuration.journalDirectory,
                stateDirectory: configuration.stateDirectory)
            let written = appended.first?.entry ?? entry
            logger.info("web: \(written.type) \(written.action.rawValue) \(written.subject) written to the journal (logbookd is not running)")
            return .object([
                ("ok", .bool(true)), ("seq", .number(Double(appended.first?.sequence ?? 0))), ("type", .string(written.type)),
                ("action", .string(written.action.rawValue)), ("subject", .string(written.subject)), ("fields", written.fields),
            ])
        } catch {
            switch error {
            case .locked(let why): throw APIError(.serviceUnavailable, "journal_busy", "logbookd does not answer (\(noDaemon)) and \(why)")
            case .failed(let why): throw APIError(.serviceUnavailable, "daemon_unreachable", "logbookd is not running (\(noDaemon)) and \(why)")
            }
        }
    }

    /// The HTTP error for a refusal: 400 for a malformed field, 404 for what does not exist,
    /// 409 for what the logbook's state rules out (a duplicate, a void of a void trip), 422
    /// for the rest (an odometer going back, a merge of trips that are not consecutive).
    static func refusal(_ problem: EntryProblem) -> APIError {
        switch problem.code {
        case "bad_request": APIError.badRequest(problem.message)
        case "duplicate", "duplicate_fill", "voided", "not_voided", "open_trip": APIError(.conflict, problem.code, problem.message)
        case "unknown_entry": APIError(.notFound, problem.code, problem.message)
        default: ControlGateway.error(code: problem.code, message: problem.message)
        }
    }
}
