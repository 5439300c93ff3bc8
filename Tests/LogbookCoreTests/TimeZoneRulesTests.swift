// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import Testing

/// The TZif reader and the POSIX footer against Foundation's zones (an independent reader
/// of the same tzdata), and the DST rule for local times a person types.
@Suite struct TimeZoneRulesTests {
    static func zone(_ name: String) throws -> TimeZoneRules {
        let bytes = try #require(FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name), "tzdata has \(name)")
        return try #require(TimeZoneRules(name: name, tzif: [UInt8](bytes)))
    }

    @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "Europe/London", "America/Sao_Paulo", "UTC"])
    func offsetsAndAbbreviationsMatchFoundationFor1970To2060(name: String) throws {
        let zone = try Self.zone(name)
        let reference = try #require(TimeZone(identifier: name))
        var mismatches: [String] = []
        // Every 6 hours over 90 years: every transition tzdata lists and the footer's years after.
        var t: Int64 = 0
        while t < 2_840_000_000 {
            let date = Date(timeIntervalSince1970: TimeInterval(t))
            let time = GPSTime(seconds: t)
            if zone.offset(time) != reference.secondsFromGMT(for: date) { mismatches.append("\(ISO8601.format(time)): \(zone.offset(time))") }
            t += 6 * 3600
        }
        #expect(mismatches.isEmpty, "\(name): \(mismatches.prefix(5))")
        // Foundation on Linux names zones "GMT+1": the abbreviations are checked against tzdata's.
        let abbreviations = ["Europe/Berlin": "CET", "America/New_York": "EDT", "Australia/Sydney": "AEDT", "Asia/Kolkata": "IST", "Europe/London": "GMT", "America/Sao_Paulo": "-03", "UTC": "UTC"]
        #expect(zone.abbreviation(GPSTime(seconds: 1_900_000_000)) == abbreviations[name])  // 2030-03-17
    }

    @Test func aPosixRuleAloneGivesTheSameOffsetsAsTheFile() throws {
        let file = try Self.zone("Europe/Berlin")
        let rule = try #require(TimeZoneRules(name: "CET", posixRule: "CET-1CEST,M3.5.0,M10.5.0/3"))
        for hour in stride(from: Int64(1_600_000_000), to: 2_100_000_000, by: 1800) {
            #expect(rule.offset(GPSTime(seconds: hour)) == file.offset(GPSTime(seconds: hour)))
        }
        #expect(TimeZoneRules(name: "x", posixRule: "nonsense,") == nil)
    }

    /// The rule: a skipped local time moves forward by the gap; a repeated one is the first.
    @Test func dstEdges() throws {
        let berlin = try Self.zone("Europe/Berlin")
        func utc(_ local: String) throws -> String { ISO8601.format(try LocalTimeInput.parse(local, zone: berlin)) }
        #expect(try utc("2029-03-25T01:59") == "2029-03-25T00:59:00Z")
        #expect(try utc("2029-03-25T02:30") == "2029-03-25T01:30:00Z")  // does not exist: 03:30 CEST
        #expect(try utc("2029-03-25T03:00") == "2029-03-25T01:00:00Z")
        #expect(try utc("2029-10-28T02:30") == "2029-10-28T00:30:00Z")  // twice: the first, CEST
        #expect(try utc("2029-10-28T03:00") == "2029-10-28T02:00:00Z")
        #expect(try utc("2029-10-28") == "2029-10-27T22:00:00Z")
        #expect(berlin.dateTimeWithZone(GPSTime(seconds: 1_888_297_200)) == "2029-11-02 08:00 CET")
        let ny = try Self.zone("America/New_York")
        #expect(ISO8601.format(try LocalTimeInput.parse("2029-03-11T02:30", zone: ny)) == "2029-03-11T07:30:00Z")
        #expect(ISO8601.format(try LocalTimeInput.parse("2029-11-04T01:30", zone: ny)) == "2029-11-04T05:30:00Z")
    }
}
