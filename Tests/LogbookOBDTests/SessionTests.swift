// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookRecords
import LogbookOBD
import Testing

/// The dialogue's logic with a scripted adapter (a test double; the real adapter tests talk
/// to ELM327-emulator): what is asked in which order, and what the replies mean.
@Suite struct SessionTests {
    /// Replies by command; a missing command times out. Time advances 0.1 s per exchange.
    struct ScriptedAdapter {
        var replies: [String: String]
        var session = ELMSession()
        var now = MonotonicInstant(seconds: 100)
        var sent: [String] = []

        init(_ replies: [String: String], plan: OBDPollingPlan = OBDPollingPlan()) {
            self.replies = replies
            session = ELMSession(plan: plan)
        }

        /// Runs until `seconds` of adapter time have passed; returns the events.
        mutating func run(for seconds: Double) -> [OBDEvent] {
            let end = now.advanced(bySeconds: seconds)
            var events: [OBDEvent] = []
            while now < end, session.failure == nil {
                guard let (request, _) = session.nextRequest(at: now) else {
                    now = max(now.advanced(bySeconds: 0.01), min(session.nextWake, end))
                    continue
                }
                sent.append(request.command)
                now = now.advanced(bySeconds: 0.1)
                let exchange: ELMExchange = replies[request.command].map { .reply(Array($0.utf8)) } ?? .timedOut
                events += session.handle(exchange, at: now)
            }
            return events
        }
    }

    static let car: [String: String] = [
        "ATZ": "ATZ\r\r\rELM327 v1.5\r\r", "ATE0": "ATE0\rOK\r\r", "ATL0": "OK", "ATS0": "OK", "ATH0": "OK", "ATSP0": "OK",
        "ATRV": "12.4V", "0100": "SEARCHING...\r4100BE3FA813", "0120": "4120901FF015", "0140": "41407A1C8021",
        "0160": "416000000001", "0180": "418000000001", "01A0": "41A004200000", "0900": "4900F5600000",
        "0902": ReplyParserTests.vinFrames, "010C": "410C145F", "010D": "410D0A", "012F": "412FAA", "01A6": "41A60000EA5C",
        "03": "43 01 33 04 20", "07": "4700",
    ]

    @Test func setUpDiscoveryAndAStartingEngine() throws {
        var adapter = ScriptedAdapter(Self.car)
        let events = adapter.run(for: 3)
        #expect(Array(adapter.sent.prefix(14)) == [
            "ATZ", "ATE0", "ATL0", "ATS0", "ATH0", "ATSP0", "0100", "0120", "0140", "0160", "0180", "01A0", "0900", "0902",
        ])
        let info = try #require(events.compactMap { if case .connected(let i) = $0 { i } else { nil } }.first)
        #expect(info.identity == "ELM327 v1.5" && info.vin?.text == "WP0ZZZ99ZTS390000" && info.supported.contains(0xA6))
        #expect(events.contains(.engine(running: true)) && events.contains(.rpm(1303.75)))
        let readings = try #require(events.compactMap { if case .readings(let r) = $0 { r } else { nil } }.first)
        #expect(readings.moment == .engineStart && readings.voltage == 12.4 && readings.odometerKm == 5999.6)
        #expect(readings.storedCodes?.map(\.description) == ["P0133", "P0420"] && readings.pendingCodes == [])
        #expect(events.contains(.speed(10)))
    }

    @Test func unsupportedPIDsAreNeverAsked() {
        var replies = Self.car
        replies["0100"] = "4100BE3FA810"  // last byte 10 = 0001 0000: 1C only, no 0x20 (no next bitmap)
        var adapter = ScriptedAdapter(replies)
        _ = adapter.run(for: 3)
        #expect(!adapter.sent.contains("0120") && !adapter.sent.contains("012F") && !adapter.sent.contains("01A6"))
    }

    @Test func aLoneZeroIsNoStopButAQuietEngineIs() {
        var adapter = ScriptedAdapter(Self.car)
        _ = adapter.run(for: 2)
        adapter.replies["010C"] = "410C0000"
        _ = adapter.run(for: 0.9)  // one zero reading
        adapter.replies["010C"] = "410C145F"
        var events = adapter.run(for: 2)
        #expect(!events.contains(.engine(running: false)))
        adapter.replies["010C"] = "NO DATA"
        events = adapter.run(for: 6)
        #expect(events.contains(.engine(running: false)))
        let stop = events.compactMap { if case .readings(let r) = $0, r.moment == .engineStop { r } else { nil } }
        #expect(stop.count == 1)
    }

    @Test func aSilentCarIsProbedUntilItAnswers() {
        var replies = Self.car
        replies["0100"] = "SEARCHING...\rUNABLE TO CONNECT"
        var adapter = ScriptedAdapter(replies)
        var events = adapter.run(for: 12)
        #expect(events.first == .adapterReady(identity: "ELM327 v1.5"))
        #expect(adapter.sent.filter { $0 == "0100" }.count == 3)  // at 0 s, 5 s and 10 s
        #expect(!events.contains { if case .connected = $0 { true } else { false } })
        adapter.replies["0100"] = "4100BE3FA813"
        events = adapter.run(for: 6)
        #expect(events.contains { if case .connected = $0 { true } else { false } })
    }

    @Test func timeoutsInARowAskForANewConnection() {
        var adapter = ScriptedAdapter(Self.car)
        _ = adapter.run(for: 2)
        adapter.replies["010C"] = nil  // one timeout among answered requests is no hung adapter
        _ = adapter.run(for: 0.8)
        adapter.replies = Self.car
        _ = adapter.run(for: 10)
        #expect(adapter.session.failure == nil && adapter.session.counters.timeouts == 1)
        adapter.replies = [:]  // the adapter hangs
        _ = adapter.run(for: 20)
        #expect(adapter.session.failure?.contains("3 of the last 6 requests timed out") == true)
    }

    @Test func garbageIsCountedAndNeverAValue() {
        var adapter = ScriptedAdapter(Self.car)
        _ = adapter.run(for: 2)
        adapter.replies["010C"] = "41 0C ZZ 9"
        let events = adapter.run(for: 3)
        #expect(!events.contains { if case .rpm = $0 { true } else { false } })
        #expect(adapter.session.counters.rejected >= 2 && adapter.session.counters.lastRejection == .notHex)
        #expect(events.contains { if case .counters = $0 { true } else { false } })
    }

    @Test func aBadCheckDigitLeavesTheVINOutAndSaysWhy() throws {
        var replies = Self.car
        // 1M8GDM9A1KP042788: position 9 must be X.
        replies["0902"] = "014\r0: 490201314D38\r1: 47444D3941314B\r2: 50303432373838"
        var adapter = ScriptedAdapter(replies)
        let events = adapter.run(for: 2)
        let info = try #require(events.compactMap { if case .connected(let i) = $0 { i } else { nil } }.first)
        #expect(info.vin == nil && info.vinProblem == .vinCheckDigit)
    }
}
