// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookTestSupport
import Testing

/// Manual start/stop, shutdown and the precedence between them and the sources.
struct TripEngineCommandTests {
    @Test func manualStartAndStop() throws {
        var h = TripEngineHarness()
        var track = TrackBuilder()
        h.command(.start(vehicle: "golf"))
        #expect(h.starts.map(\.reason) == [.manual])
        #expect(h.starts.map(\.vehicle) == ["golf"])
        h.feed(track.drive(seconds: 100, speed: 12))
        h.command(.stop)
        let end = try #require(h.ends.only)
        #expect(end.reason == .manual)
        #expect(end.reason.rawValue == "manual")
        #expect(abs(end.summary.durationSeconds - 100) < 1e-9)
    }

    @Test func manualSignalIsTheSameAsTheCommands() {
        var h = TripEngineHarness()
        h.signal(.on(.manual, "cli", vehicle: "polo"))
        h.wait(90)
        h.signal(.off(.manual, "cli"))
        #expect(h.starts.map(\.vehicle) == ["polo"])
        #expect(h.ends.map(\.reason) == [.manual])
    }

    @Test func manualTripIgnoresPowerOffAndOtherVehicles() {
        var h = TripEngineHarness()
        h.command(.start(vehicle: "golf"))
        h.signal(.on(.power, "ignition", vehicle: "golf"))
        h.signal(.off(.power, "ignition", vehicle: "golf"))
        h.signal(.on(.bluetooth, "BB", vehicle: "polo"))
        h.wait(600)
        #expect(h.ends.isEmpty)
        #expect(h.starts.count == 1)
        h.command(.stop)
        #expect(h.ends.map(\.reason) == [.manual])
    }

    @Test func manualStopBeatsPowerUntilANewOnEdge() {
        var h = TripEngineHarness()
        h.signal(.on(.power, "ignition"))
        h.wait(120)
        h.command(.stop)
        #expect(h.ends.map(\.reason) == [.manual])
        h.signal(.on(.power, "ignition"))  // still on: a refresh, not a new start
        h.wait(120)
        #expect(h.starts.count == 1, "the manual stop holds while the source merely stays on")
        h.signal(.off(.power, "ignition"))
        h.signal(.on(.power, "ignition"))  // a fresh ignition
        #expect(h.starts.count == 2)
        #expect(h.starts.last?.reason == .power("ignition"))
    }

    @Test func manualStartTakesOverAPowerTrip() {
        var h = TripEngineHarness()
        h.signal(.on(.power, "ignition"))
        h.command(.start(vehicle: "golf"))
        #expect(h.decisions.last == .adopted(vehicle: "golf", reason: .manual))
        h.signal(.off(.power, "ignition"))
        h.wait(120)
        #expect(h.ends.isEmpty, "a manual trip does not end on power off")
        #expect(h.starts.count == 1)
    }

    @Test func manualStartForAnotherVehicleSplits() {
        var h = TripEngineHarness()
        h.signal(.on(.power, "ignition", vehicle: "golf"))
        h.wait(120)
        h.command(.start(vehicle: "polo"))
        #expect(h.starts.map(\.vehicle) == ["golf", "polo"])
        #expect(h.ends.map(\.reason) == [.manual])
    }

    @Test func shutdownEndsTheTrip() throws {
        var h = TripEngineHarness()
        h.signal(.on(.power, "ignition"))
        h.wait(300)
        h.command(.shutdown)
        let end = try #require(h.ends.only)
        #expect(end.reason == .shutdown)
        #expect(end.reason.rawValue == "shutdown")
        #expect(h.engine.phase == .idle)
    }

    @Test func shutdownDuringTheGraceKeepsThePowerReason() throws {
        var h = TripEngineHarness()
        h.signal(.on(.power, "ignition"))
        h.wait(300)
        h.signal(.off(.power, "ignition"))
        h.wait(5)
        h.command(.shutdown)
        let end = try #require(h.ends.only)
        #expect(end.reason == .power("ignition"))
        #expect(abs(end.summary.durationSeconds - 300) < 1e-9)
    }

    @Test func shutdownWhenIdleDoesNothing() {
        var h = TripEngineHarness()
        h.command(.shutdown)
        #expect(h.decisions.isEmpty)
    }

    @Test func reasonsRoundTripThroughTheirStrings() {
        let all: [TripReason] = [
            .power("ignition"), .gpio("17"), .bluetooth("AA:BB:CC:DD:EE:FF"), .device("obd"), .motion, .manual,
            .service, .shutdown, .recovered, .gap,
        ]
        for reason in all { #expect(TripReason(rawValue: reason.rawValue) == reason) }
        #expect(TripReason(rawValue: "bluetooth:AA:BB").map { $0 } == .bluetooth("AA:BB"))
        #expect(TripReason(rawValue: "banana") == nil)
        #expect(TripReason(rawValue: "banana:split") == nil)
    }
}
