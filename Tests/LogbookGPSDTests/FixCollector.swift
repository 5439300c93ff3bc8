// SPDX-License-Identifier: MIT
import Foundation
import LogbookTestSupport
import LogbookCore
import LogbookGPSD
import Logging
import Synchronization

/// Runs a GPSDSource against a replay and records every event with its arrival time.
final class FixCollector: Sendable {
    let source: GPSDSource
    private let events = Mutex<[(GPSDEvent, ContinuousClock.Instant)]>([])

    init(address: String) {
        source = GPSDSource(endpoint: HostPort(parsing: address, defaultPort: 2947) ?? HostPort(host: "127.0.0.1", port: "2947"), logger: Logger(label: "test"))
    }

    func record(_ e: GPSDEvent) { events.withLock { $0.append((e, .now)) } }

    var all: [GPSDEvent] { events.withLock { $0.map(\.0) } }
    var timed: [(GPSDEvent, ContinuousClock.Instant)] { events.withLock { $0 } }

    var fixes: [Fix] {
        all.compactMap { if case .fix(let f) = $0 { f } else { nil } }
    }

    var noFixCount: Int {
        all.filter { if case .noFix = $0 { true } else { false } }.count
    }

    /// Runs the source in a child task while `body` runs, then stops it.
    func during(_ body: () async throws -> Void) async rethrows {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                await source.run { batch in for e in batch { self.record(e) } }
            }
            defer { source.stop() }
            try await body()
            source.stop()
            try await group.waitForAll()
        }
    }

    /// Waits until `predicate` holds for the events, or the timeout passes.
    func wait(timeout: Duration = .seconds(60), until predicate: ([GPSDEvent]) -> Bool) async -> Bool {
        var deadline = TestDeadline(timeout)
        while !deadline.passed {
            if predicate(all) { return true }
            await deadline.sleep(for: .milliseconds(20))
        }
        return predicate(all)
    }
}

extension GPSDEvent {
    var isDisconnect: Bool { if case .disconnected = self { true } else { false } }
    var isConnect: Bool { if case .connected = self { true } else { false } }
}
