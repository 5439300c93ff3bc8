// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import Synchronization
internal import LogbookPOSIX

/// State shared between the pipeline (writer), the live-state publisher and the watchdog.
final class DaemonState: Sendable {
    private let live = Mutex(LiveState())
    private let pipelineBeat = Atomic<Int64>(Int64(MonotonicClock.nanoseconds()))

    /// A copy of the live state.
    var snapshot: LiveState { live.withLock { $0 } }

    /// Whether a trip is open (the live-state publisher's pace).
    var hasTrip: Bool { live.withLock { $0.trip != nil } }

    /// Changes the live state under the lock.
    func update(_ body: (inout LiveState) -> Void) { live.withLock { body(&$0) } }

    /// Takes the next sequence number and a copy of the state to publish.
    func nextPublication(at wallClock: GPSTime) -> LiveState {
        live.withLock { state in
            state.seq += 1
            state.updatedAt = wallClock
            return state
        }
    }

    /// Marks that the pipeline has handled an event.
    func pipelineTurned() { pipelineBeat.store(Int64(MonotonicClock.nanoseconds()), ordering: .relaxed) }

    /// Monotonic ns of the pipeline's last turn.
    var lastPipelineTurn: Int64 { pipelineBeat.load(ordering: .relaxed) }
}
