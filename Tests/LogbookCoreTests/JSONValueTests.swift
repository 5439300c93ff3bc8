// SPDX-License-Identifier: MIT
import LogbookCore
import Testing

@Suite struct JSONValueTests {
    @Test func serializesInDeclaredOrderWithEscapes() {
        let v: JSONValue = .object([("b", .number(1)), ("a", .string("x\"y\\z\n\u{01}")), ("n", .null), ("f", .number(2.5))])
        #expect(v.serialized == #"{"b":1,"a":"x\"y\\z\n\u0001","n":null,"f":2.5}"#)
    }

    @Test func nonFiniteNumbersBecomeNull() {
        #expect(JSONValue.number(Double.nan).serialized == "null")
        #expect(JSONValue.number(nil as Double?).serialized == "null")
    }

    @Test func parsesWhatItWritesAndUnicodeEscapes() throws {
        let text = #"{"cmd":"trip.start","vehicle":"gölf","n":-1.5e3,"ok":true,"list":[1,null,"\ud83d\ude97"]}"#
        let v = try JSONValue.parse(text)
        #expect(v["cmd"]?.stringValue == "trip.start")
        #expect(v["vehicle"]?.stringValue == "gölf")
        #expect(v["n"]?.doubleValue == -1500)
        #expect(v["ok"]?.boolValue == true)
        #expect(v["list"] == .array([.number(1), .null, .string("🚗")]))
        #expect(try JSONValue.parse(v.serialized) == v)
    }

    /// Found by `scripts/fuzz.sh json`: `1e400` parsed as infinity and was written back as
    /// `null`. Out-of-range numbers are refused where they are read, with the byte offset.
    @Test(arguments: ["[1e400]", "-1e309", "{\"odometer_km\":1e99999}"])
    func refusesNumbersOutOfRange(_ text: String) throws {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
        do {
            _ = try JSONValue.parse(text)
        } catch {
            #expect(error.reason == "number out of range")
        }
        #expect(try JSONValue.parse("[1.7976931348623157e308, -5e-324, 1e-400]")
            == .array([.number(.greatestFiniteMagnitude), .number(-.leastNonzeroMagnitude), .number(0)]))
    }

    @Test(arguments: ["", "{", "{\"a\":}", "[1,]", "tru", "\"abc", "{\"a\":1} x", "{'a':1}", "[\"\u{01}\"]"])
    func rejectsMalformedText(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
    }

    @Test func rejectsInvalidUTF8AndDeepNesting() {
        #expect(throws: JSONParseError.self) { try JSONValue.parse([0x22, 0xFF, 0xFE, 0x22]) }
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(deep) }
    }

    /// Issue 28, item 5: the limit, with a clear error, and 100,000 levels cost no stack.
    @Test func nestingIsLimitedWithAClearError() throws {
        let n = JSONValue.maximumNesting
        _ = try JSONValue.parse(String(repeating: "[", count: n) + String(repeating: "]", count: n))
        for text in [
            String(repeating: "[", count: n + 1) + String(repeating: "]", count: n + 1),
            String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000),
            String(repeating: "[", count: 100_000),
        ] {
            do {
                _ = try JSONValue.parse(text)
                Issue.record("parsed")
            } catch {
                #expect(error.reason == "arrays and objects nested deeper than \(n) levels")
            }
        }
    }

    /// Duplicate keys are refused (parsers disagree on which wins: ours took the first,
    /// Python and PostgreSQL's jsonb take the last); the journal's old records keep the first.
    @Test func duplicateKeysAreRefused() throws {
        for text in [#"{"litres":1,"litres":100}"#, #"{"a":{"x":1,"y":2,"x":3}}"#, #"[{"k":1,"k":1}]"#] {
            do {
                _ = try JSONValue.parse(text)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.reason.hasPrefix("duplicate key "), "\(error)")
            }
        }
        // A large object (the set path) as well.
        let many = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        _ = try JSONValue.parse("{" + many + "}")
        #expect(throws: JSONParseError.self) { try JSONValue.parse("{" + many + ",\"k7\":0}") }
        let kept = try JSONValue.parse(#"{"litres":1,"litres":100,"x":2}"#, duplicateKeys: .keepFirst)
        #expect(kept.serialized == #"{"litres":1,"x":2}"#)
    }
}

@Suite struct ISO8601Tests {
    @Test func formatsKnownInstants() {
        #expect(ISO8601.format(GPSTime(seconds: 0)) == "1970-01-01T00:00:00Z")
        #expect(ISO8601.format(GPSTime(seconds: 1_270_293_745, nanoseconds: 844_000_000)) == "2010-04-03T11:22:25.844Z")
        #expect(ISO8601.format(GPSTime(seconds: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(ISO8601.format(GPSTime(seconds: -1)) == "1969-12-31T23:59:59Z")
    }

    @Test func parsesWhatItFormats() {
        for s: Int64 in [0, 1_270_293_745, 1_893_456_000, 4_102_444_800] {
            let t = GPSTime(seconds: s, nanoseconds: 250_000_000)
            #expect(ISO8601.parse(ISO8601.format(t)) == t)
        }
        #expect(ISO8601.parse("2010-04-03T11:22:25Z") == GPSTime(seconds: 1_270_293_745))
        #expect(ISO8601.parse("2010-13-03T11:22:25Z") == nil)
        #expect(ISO8601.parse("yesterday") == nil)
    }
}

@Suite struct LiveStateTests {
    @Test func idleStateHasTheDocumentedShape() throws {
        var s = LiveState()
        s.seq = 812
        s.updatedAt = GPSTime(seconds: 1_795_000_000)
        s.gps.connected = true
        s.gps.mode = .threeD
        s.gps.fixes = 10_327
        s.gps.rejected = 12
        let doc = s.json
        #expect(doc["schema"] == .number(1))
        #expect(doc["seq"] == .number(812))
        #expect(doc["trip"] == .null)
        #expect(doc["last_trip"] == .null)
        let gps = try #require(doc["gps"])
        for key in ["connected", "mode", "time", "lat", "lon", "speed_mps", "track_deg", "eph_m", "satellites_used", "fixes", "rejected"] {
            #expect(gps[key] != nil, "gps.\(key) missing")
        }
        #expect(gps["fixes"] == .number(10_327))
    }

    @Test func endedTripCarriesEndFields() throws {
        var s = LiveState()
        s.lastTrip = .init(
            id: TripID(12), active: false, vehicle: Vehicle(id: "golf", name: "Golf", make: "VW", year: 2019),
            startedAt: GPSTime(seconds: 100), startReason: "power:ignition", durationSeconds: 60.4,
            distanceMeters: 1234.56, speed: nil, maxSpeed: 30, averageSpeed: 20, points: 60,
            endedAt: GPSTime(seconds: 160), endReason: "power:ignition")
        let trip = try #require(s.json["last_trip"])
        #expect(trip["active"] == .bool(false))
        #expect(trip["end_reason"] == .string("power:ignition"))
        #expect(trip["distance_m"] == .number(1234.6))
        #expect(trip["vehicle"]?["make"] == .string("VW"))
    }
}
