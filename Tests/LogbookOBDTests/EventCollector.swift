// SPDX-License-Identifier: MIT
import Foundation
import LogbookTestSupport
import LogbookOBD
import Synchronization

/// Collects a source's events (delivered on its thread) for a test to wait on.
final class EventCollector: Sendable {
    private let events = Mutex<[OBDEvent]>([])
    let started = Date()

    var deliver: @Sendable ([OBDEvent]) -> Void { { [self] batch in events.withLock { $0 += batch } } }

    var all: [OBDEvent] { events.withLock { $0 } }

    /// Waits until `condition` holds for the events so far; returns whether it did in time.
    func wait(_ timeout: Double, _ condition: ([OBDEvent]) -> Bool) async -> Bool {
        var deadline = TestDeadline(.seconds(timeout))
        while !deadline.passed {
            if condition(all) { return true }
            await deadline.sleep(for: .milliseconds(20))
        }
        return condition(all)
    }

    /// Seconds since the collector was made.
    var elapsed: Double { Date().timeIntervalSince(started) }
}

extension [OBDEvent] {
    var connectedInfo: OBDVehicleInfo? { compactMap { if case .connected(let i) = $0 { i } else { nil } }.last }
    var readings: [OBDReadings] { compactMap { if case .readings(let r) = $0 { r } else { nil } } }
    var rpms: [Double] { compactMap { if case .rpm(let v) = $0 { v } else { nil } } }
    var counters: OBDCounters? { compactMap { if case .counters(let c) = $0 { c } else { nil } }.last }
    var lost: Int { filter { if case .adapterLost = $0 { true } else { false } }.count }
    var linkUps: Int { filter { if case .linkUp = $0 { true } else { false } }.count }
    func count(_ event: OBDEvent) -> Int { filter { $0 == event }.count }
}
