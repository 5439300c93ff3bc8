// SPDX-License-Identifier: MIT
internal import LogbookCore

/// A classification rule, checked and ready to evaluate: a ``RuleRecord`` with its weekdays
/// and time window parsed. Pure: the trip's local weekday and time come in ``RuleTrip``.
public struct ClassificationRule: Sendable, Hashable {
    /// Why a rule is refused: the field at fault and one line.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var field: String
        public var message: String
        public var description: String { "\(field): \(message)" }
    }

    /// The rule's name (an id): the journal entry's subject, or `name` in `[[rule]]`.
    public var name: String
    public var record: RuleRecord
    /// ISO weekdays (1 Monday … 7 Sunday); nil: any day.
    public var weekdays: Set<Int>?
    /// The local time window the trip starts in; nil: any time.
    public private(set) var window: TimeWindow?

    /// Minutes after local midnight: `from` inclusive, `until` exclusive; wraps past midnight
    /// when `until < from`.
    public struct TimeWindow: Sendable, Hashable {
        public var from: Int
        public var until: Int

        public func contains(minute m: Int) -> Bool { from < until ? (m >= from && m < until) : (m >= from || m < until) }
    }

    /// Where the rule came from: `config` (`[[rule]]`) or the journal (`rules add`).
    public var fromConfig: Bool

    /// Checks `record`: at least one condition, known weekday names, a possible time window.
    public init(name: String, record: RuleRecord, fromConfig: Bool = false) throws(Problem) {
        self.name = name
        self.record = record
        self.fromConfig = fromConfig
        let r = record
        let set = [r.startPlace != nil, r.endPlace != nil, r.weekdays != nil, r.time != nil, r.vehicle != nil, r.driver != nil, r.minimumKm != nil]
        guard set.contains(true) else {
            throw Problem(field: "class", message: "a rule needs at least one condition (\(RuleRecord.conditionFields.joined(separator: ", ")))")
        }
        guard TripClassRecord.classes.contains(r.tripClass) else {
            throw Problem(field: "class", message: "expected one of \(TripClassRecord.classes.joined(separator: ", ")), got \"\(r.tripClass)\"")
        }
        if let text = r.weekdays { weekdays = try Self.parseWeekdays(text) }
        if let text = r.time {
            window = try Self.parseWindow(text)
        }
    }

    /// Weekday names, as written in rules (ISO order).
    public static let weekdayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// `mon-fri`, `sat,sun`, `fri-mon` (wraps), full names too; case does not matter.
    static func parseWeekdays(_ text: String) throws(Problem) -> Set<Int> {
        func day(_ word: Substring) throws(Problem) -> Int {
            let w = String(word).trimmed.lowercased()
            let full = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
            if let i = weekdayNames.firstIndex(of: w) ?? full.firstIndex(of: w) { return i + 1 }
            throw Problem(field: "weekdays", message: "unknown weekday \"\(w)\" (expected \(weekdayNames.joined(separator: ", ")) or a range like mon-fri)")
        }
        var out: Set<Int> = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false)
            guard ends.count <= 2 else { throw Problem(field: "weekdays", message: "\"\(String(item).trimmed)\" is not a day or a range like mon-fri") }
            let first = try day(ends[0])
            let last = ends.count == 2 ? try day(ends[1]) : first
            var d = first
            while true {
                out.insert(d)
                if d == last { break }
                d = d % 7 + 1
            }
        }
        return out
    }

    /// `HH:MM-HH:MM` (24 h, `24:00` as an end): minutes after midnight.
    static func parseWindow(_ text: String) throws(Problem) -> TimeWindow {
        let bad = Problem(field: "time", message: "expected a local time window like 07:00-09:30, got \"\(text)\"")
        let ends = text.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2 else { throw bad }
        func minutes(_ s: Substring, end: Bool) throws(Problem) -> Int {
            let parts = String(s).trimmed.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].count == 2, let h = Int(parts[0]), let m = Int(parts[1]) else { throw bad }
            guard h >= 0, m >= 0, m < 60, h < 24 || (end && h == 24 && m == 0) else {
                throw Problem(field: "time", message: "\"\(String(s).trimmed)\" is not a time of day (00:00 to 24:00)")
            }
            return h * 60 + m
        }
        let from = try minutes(ends[0], end: false), until = try minutes(ends[1], end: true)
        guard from != until else {
            throw Problem(field: "time", message: "the window \"\(text)\" is empty (its start and end are the same time)")
        }
        return TimeWindow(from: from, until: until)
    }

    /// True when every condition holds for `trip`.
    public func matches(_ trip: RuleTrip) -> Bool {
        let r = record
        if let p = r.startPlace, !trip.startPlaces.contains(p) { return false }
        if let p = r.endPlace, !trip.endPlaces.contains(p) { return false }
        if let v = r.vehicle, trip.vehicle != v { return false }
        if let d = r.driver, trip.driver?.lowercased() != d.lowercased() { return false }
        if let km = r.minimumKm, trip.distance < km * 1000 { return false }
        if let days = weekdays {
            guard let day = trip.localWeekday, days.contains(day) else { return false }
        }
        if let window {
            guard let m = trip.localMinute, window.contains(minute: m) else { return false }
        }
        return true
    }

    /// What a matching trip is classified as (the entry's fields name this rule).
    public var classification: TripClassRecord {
        TripClassRecord(tripClass: record.tripClass, purpose: record.purpose, partner: record.partner, destination: record.destination, rule: name)
    }
}
