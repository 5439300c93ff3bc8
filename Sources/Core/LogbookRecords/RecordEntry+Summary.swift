// SPDX-License-Identifier: MIT
internal import LogbookCore

extension RecordEntry {
    /// One line for a person: what the entry did (`voided: test drive`, `trip 12 merged into
    /// trip 11`, `classified business (purpose: client visit)`). The CLI's `--history`, the web
    /// app's history panel and the report's list of changes all print this.
    public var summary: String {
        switch (type, action) {
        case (TripClassRecord.type, _):
            let c = try? TripClassRecord(json: fields)
            let details = [c?.purpose.map { "purpose: \($0)" }, c?.partner.map { "partner: \($0)" }, c?.destination.map { "destination: \($0)" }]
                .compactMap { $0 }
            return "classified \(c?.tripClass ?? "?")" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
        case (TripVoidRecord.type, .void): return "restored" + ((try? TripVoidRecord(json: fields))?.reason.map { ": \($0)" } ?? "")
        case (TripVoidRecord.type, _): return "voided" + ((try? TripVoidRecord(json: fields))?.reason.map { ": \($0)" } ?? "")
        case (TripAssignRecord.type, _):
            let a = try? TripAssignRecord(json: fields)
            return ["assigned", a?.vehicle.map { "to vehicle \($0)" }, a?.driver.map { "driver \($0)" }].compactMap { $0 }.joined(separator: " ")
        case (TripMergeRecord.type, _): return "trip \((try? TripMergeRecord(json: fields))?.with.description ?? "?") merged into trip \(subject)"
        case (TripSplitRecord.type, _):
            let s = try? TripSplitRecord(json: fields)
            return "split at \(s.map { ISO8601.format($0.at) } ?? "?") into trips \(subject) and \(s?.newTrip?.description ?? "?")"
        default:
            let verb = ["add": "added", "amend": "changed", "void": "withdrawn"][action.rawValue] ?? action.rawValue
            return "\(type) \(subject) \(verb)"
        }
    }
}
