// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Synchronization

/// Reads live.json every 100 ms on a task of its own and keeps the worst age seen
/// (wall clock now − `updated_at`) and whether `seq` only grew.
final class LiveAgeMonitor: Sendable {
    private struct State {
        var worst = 0.0
        var samples = 0
        var lastSeq = -1
        var seqWentBack = false
    }

    private let state = Mutex(State())
    private let path: String
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(path: String) {
        self.path = path
        let t = Task { [self] in
            while !Task.isCancelled {
                sample()
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        task.withLock { $0 = t }
    }

    private func sample() {
        guard let doc = readJSONFile(path), let seq = doc["seq"] as? Int, let updated = (doc["updated_at"] as? String).flatMap(ISO8601.parse) else { return }
        let age = Date().timeIntervalSince1970 - updated.seconds
        state.withLock { s in
            s.worst = max(s.worst, age)
            s.samples += 1
            if seq < s.lastSeq { s.seqWentBack = true }
            s.lastSeq = seq
        }
    }

    /// The worst age so far (s), the number of samples, the last seq, and whether seq ever fell.
    var figures: (worst: Double, samples: Int, seq: Int, seqWentBack: Bool) {
        state.withLock { ($0.worst, $0.samples, $0.lastSeq, $0.seqWentBack) }
    }

    func stop() { task.withLock { $0?.cancel() } }
}
