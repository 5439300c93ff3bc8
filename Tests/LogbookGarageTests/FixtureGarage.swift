// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookGarage
import LogbookRecords

/// The hand-computed fixture garage (`docs/garage.md` shows the same numbers): two vehicles,
/// EUR, CHF and USD, partial, missed, voided, amended and out-of-order fills.
enum FixtureGarage {
    static let now = GPSTime(seconds: 1_775_001_600)  // 2026-04-01T00:00:00Z

    /// Builds entries the way both write paths do: a request through ``EntryCommand/draft``.
    static func entry(_ cmd: String, _ fields: [(String, JSONValue)], seq: inout UInt64) throws -> RecordedEntry {
        guard let command = EntryCommand.named(cmd) else { throw EntryProblem("test", "no \(cmd)") }
        let e = try command.draft(.object([("cmd", .string(cmd))] + fields + [("origin", .string("cli"))]), now: now)
        seq += 1
        return RecordedEntry(sequence: seq, entry: e, recordedAt: now)
    }

    static func fill(_ vehicle: String, _ at: String, _ odo: Double, _ litres: Double, _ price: Double, _ currency: String,
                     full: Bool = true, missed: Bool = false) -> [(String, JSONValue)] {
        [("vehicle", .string(vehicle)), ("at", .string(at)), ("odometer_km", .number(odo)), ("litres", .number(litres)),
         ("price", .number(price)), ("currency", .string(currency)), ("full", .bool(full)), ("missed", .bool(missed))]
    }

    static func entries() throws -> [RecordedEntry] {
        var seq: UInt64 = 100
        var out: [RecordedEntry] = []
        out.append(try entry("vehicle.add", [("vehicle", .string("golf")), ("name", .string("Golf")), ("registration", .string("M-AB 123"))], seq: &seq))
        out.append(try entry("vehicle.add", [("vehicle", .string("van")), ("name", .string("Transit"))], seq: &seq))
        out.append(try entry("fuel.add", fill("golf", "2026-01-05T10:00:00Z", 10_000, 30, 45, "EUR"), seq: &seq))
        out.append(try entry("fuel.add", fill("van", "2026-01-10T10:00:00Z", 50_000, 60, 90, "USD"), seq: &seq))
        out.append(try entry("fuel.add", fill("golf", "2026-01-20T10:00:00Z", 10_500, 20, 30, "EUR", full: false), seq: &seq))
        out.append(try entry("fuel.add", fill("golf", "2026-02-01T10:00:00Z", 10_800, 25, 40, "CHF"), seq: &seq))
        out.append(try entry("fuel.add", fill("van", "2026-02-10T10:00:00Z", 50_800, 64, 96, "USD"), seq: &seq))
        // Entered with a typo, then amended: 38 L → 36 L.
        out.append(try entry("fuel.add", fill("golf", "2026-02-20T10:00:00Z", 11_400, 38, 54, "EUR"), seq: &seq))
        out.append(try entry("fuel.amend", [("subject", .string("golf@20260220T100000Z")), ("litres", .number(36))], seq: &seq))
        // Out of order: the March 30 fill is entered before the March 10 one.
        out.append(try entry("fuel.add", fill("golf", "2026-03-30T10:00:00Z", 12_500, 31, 46.5, "EUR"), seq: &seq))
        out.append(try entry("fuel.add", fill("golf", "2026-03-10T10:00:00Z", 12_000, 30, 45, "EUR", missed: true), seq: &seq))
        out.append(try entry("fuel.add", fill("van", "2026-03-01T10:00:00Z", 51_000, 10, 15, "USD", full: false), seq: &seq))
        out.append(try entry("fuel.add", fill("van", "2026-03-05T10:00:00Z", 51_100, 20, 30, "USD"), seq: &seq))
        out.append(try entry("fuel.void", [("subject", .string("van@20260305T100000Z")), ("reason", .string("duplicate"))], seq: &seq))
        out.append(try entry("fuel.add", fill("van", "2026-03-15T10:00:00Z", 51_600, 40, 60, "USD"), seq: &seq))
        return out
    }

    static func garage() throws -> Garage { Garage(entries: try entries()) }
}
