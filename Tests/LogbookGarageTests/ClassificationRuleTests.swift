// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookGarage
import LogbookRecords
import Testing

/// Rule evaluation (``ClassificationRule``, ``RuleBook``): pure, on hand-made trips.
@Suite struct ClassificationRuleTests {
    func rule(_ name: String, _ record: RuleRecord) throws -> ClassificationRule { try ClassificationRule(name: name, record: record) }

    func trip(_ n: UInt64, from: Set<String> = [], to: Set<String> = [], day: Int, at minute: Int, km: Double = 8, vehicle: String? = "golf")
        -> RuleTrip
    {
        RuleTrip(number: TripID(n), vehicle: vehicle, distance: km * 1000, startPlaces: from, endPlaces: to, localWeekday: day, localMinute: minute)
    }

    @Test func weekdaysAndWindowsParseAsWritten() throws {
        #expect(try rule("a", RuleRecord(weekdays: "mon-fri", tripClass: "business")).weekdays == [1, 2, 3, 4, 5])
        #expect(try rule("a", RuleRecord(weekdays: "Sat, sunday", tripClass: "private")).weekdays == [6, 7])
        #expect(try rule("a", RuleRecord(weekdays: "fri-mon", tripClass: "private")).weekdays == [5, 6, 7, 1])
        let night = try rule("a", RuleRecord(time: "22:00-02:00", tripClass: "private"))
        #expect(night.window?.contains(minute: 23 * 60) == true && night.window?.contains(minute: 60) == true)
        #expect(night.window?.contains(minute: 2 * 60) == false && night.window?.contains(minute: 12 * 60) == false)
        #expect(try rule("a", RuleRecord(time: "00:00-24:00", tripClass: "private")).window?.contains(minute: 1439) == true)
    }

    @Test func badRulesNameTheirField() {
        func problem(_ r: RuleRecord) -> ClassificationRule.Problem? {
            do { _ = try ClassificationRule(name: "x", record: r) } catch { return error }
            return nil
        }
        #expect(problem(RuleRecord(tripClass: "business"))?.field == "class")
        #expect(problem(RuleRecord(weekdays: "mon-fir", tripClass: "business"))?.message.contains("unknown weekday \"fir\"") == true)
        #expect(problem(RuleRecord(weekdays: "tues", tripClass: "business"))?.field == "weekdays")
        #expect(problem(RuleRecord(time: "25:00-26:00", tripClass: "business"))?.field == "time")
        #expect(problem(RuleRecord(time: "09:00-09:00", tripClass: "business"))?.message.contains("empty") == true)
        #expect(problem(RuleRecord(time: "9-17", tripClass: "business"))?.field == "time")
        #expect(problem(RuleRecord(time: "07:60-09:00", tripClass: "business"))?.field == "time")
        #expect(problem(RuleRecord(vehicle: "golf", tripClass: "leisure"))?.field == "class")
    }

    @Test func theFirstMatchingRuleWinsAndEveryConditionMustHold() throws {
        let rules = [
            try rule("commute", RuleRecord(startPlace: "home", endPlace: "office", weekdays: "mon-fri", time: "06:00-10:00", tripClass: "commute")),
            try rule("long", RuleRecord(minimumKm: 100, tripClass: "business", purpose: "Customer")),
            try rule("weekend", RuleRecord(weekdays: "sat,sun", tripClass: "private")),
        ]
        #expect(RuleBook.firstMatch(rules, trip(1, from: ["home"], to: ["office"], day: 1, at: 7 * 60 + 30))?.name == "commute")
        // 10:00 is outside 06:00-10:00 (until is exclusive).
        #expect(RuleBook.firstMatch(rules, trip(2, from: ["home"], to: ["office"], day: 1, at: 10 * 60)) == nil)
        #expect(RuleBook.firstMatch(rules, trip(3, from: ["home"], to: ["office"], day: 6, at: 7 * 60))?.name == "weekend")
        #expect(RuleBook.firstMatch(rules, trip(4, day: 6, at: 7 * 60, km: 150))?.name == "long")
        #expect(RuleBook.firstMatch(rules, trip(5, day: 2, at: 7 * 60, km: 99.9)) == nil)
        #expect(RuleBook.firstMatch(rules, trip(6, from: ["home", "street"], to: ["office"], day: 5, at: 6 * 60))?.name == "commute")
        let golf = try rule("golf", RuleRecord(vehicle: "golf", driver: "Sam", tripClass: "business"))
        #expect(golf.matches(RuleTrip(number: TripID(7), vehicle: "golf", driver: "sam", distance: 1, localWeekday: 1, localMinute: 0)))
        #expect(!golf.matches(RuleTrip(number: TripID(8), vehicle: "golf", driver: "Alex", distance: 1, localWeekday: 1, localMinute: 0)))
        #expect(!golf.matches(RuleTrip(number: TripID(9), vehicle: "van", driver: "Sam", distance: 1, localWeekday: 1, localMinute: 0)))
        #expect(rules[1].classification == TripClassRecord(tripClass: "business", purpose: "Customer", rule: "long"))
    }

    @Test func aPersonsClassificationIsNeverChangedAndARulesIsRedoneOnlyWhenItDiffers() throws {
        let rules = [try rule("weekend", RuleRecord(weekdays: "sat,sun", tripClass: "private"))]
        let trips = (1...4).map { trip(UInt64($0), day: 6, at: 600) }
        let current: [TripID: RuleBook.Current] = [
            TripID(1): .init(record: TripClassRecord(tripClass: "business"), origin: "cli"),
            TripID(2): .init(record: TripClassRecord(tripClass: "private", rule: "weekend"), origin: "rule"),
            TripID(3): .init(record: TripClassRecord(tripClass: "commute", rule: "old"), origin: "rule"),
        ]
        let all = RuleBook.plan(rules, trips: trips, current: current)
        #expect(all.map(\.trip.rawValue) == [3, 4])
        #expect(all.first?.previous?.tripClass == "commute")
        #expect(RuleBook.plan(rules, trips: trips, current: current, onlyUnclassified: true).map(\.trip.rawValue) == [4])
    }

    @Test func theGarageKeepsAPersonsClassificationOverALaterRules() {
        func entry(_ seq: UInt64, _ c: TripClassRecord, _ origin: String) -> RecordedEntry {
            RecordedEntry(sequence: seq, entry: c.entry(subject: "5", origin: origin), recordedAt: nil)
        }
        let garage = Garage(entries: [
            entry(1, TripClassRecord(tripClass: "private", rule: "weekend"), "rule"),
            entry(2, TripClassRecord(tripClass: "business", purpose: "Fair"), "web"),
            entry(3, TripClassRecord(tripClass: "private", rule: "weekend"), "rule"),
        ])
        let c = garage.classifications[TripID(5)]
        #expect(c?.tripClass == "business" && c?.classifiedBy == "person" && c?.history.count == 2)
        let byRule = Garage(entries: [entry(1, TripClassRecord(tripClass: "private", rule: "weekend"), "rule")]).classifications[TripID(5)]
        #expect(byRule?.classifiedBy == "rule weekend")
    }
}
