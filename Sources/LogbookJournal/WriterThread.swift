// SPDX-License-Identifier: MIT
import Logging

extension JournalWriter {
    /// The writer thread: wait for the interval or a wake-up, take the pending records, commit.
    func run(_ core: JournalCore) {
        let interval = UInt64(nanoseconds(configuration.commitInterval))
        let checkpointEvery = UInt64(nanoseconds(configuration.checkpointInterval))
        let maxBatchBytes = max(4 << 10, configuration.segmentSize / 4)
        while true {
            let (batch, checkpoint, closing) = state.wait(
                until: { $0.lastCommit &+ interval },
                ready: { $0.commitNow || $0.closing },
                then: { s -> ([(UInt64, JournalRecord)], Bool, Bool) in
                    let now = Monotonic.now()
                    // Take at most a quarter segment per commit so a backlog (after I/O errors,
                    // or a burst) still rotates at the segment cap; the rest follows at once.
                    var take = 0, bytes = 0
                    while take < s.pending.count && (take == 0 || bytes < maxBatchBytes) {
                        bytes += Self.estimatedSize(s.pending[take].1)
                        take += 1
                    }
                    let batch = Array(s.pending[0..<take])
                    s.pending.removeFirst(take)
                    s.pendingBytes = max(0, s.pendingBytes - bytes)
                    s.commitNow = !s.pending.isEmpty && (s.commitNow || take > 0)
                    s.lastCommit = now
                    let tripEnd = batch.contains { if case .tripEnded = $0.1 { return true } else { return false } }
                    let due = !batch.isEmpty && now &- s.lastCheckpoint >= checkpointEvery
                    if tripEnd || due { s.lastCheckpoint = now }
                    // Close only once everything pending has been taken.
                    return (batch, tripEnd || due, s.closing && s.pending.isEmpty)
                })
            var failure: String?
            if !batch.isEmpty {
                do { try core.commit(batch, checkpoint: checkpoint) } catch { failure = "\(error)" }
            }
            if closing && failure == nil {
                do { try core.seal() } catch { failure = "\(error)" }
            }
            if let failure {
                logger.error("journal commit failed; the segment is abandoned and a new one will be started",
                    metadata: ["error": "\(failure)", "records": "\(batch.count)"])
            }
            let resume = finishCommit(core, batch: batch, failure: failure, closing: closing)
            for (c, r) in resume { c.resume(with: r) }
            if closing {
                lock.release()
                return
            }
        }
    }

    /// Publishes the commit's outcome; returns the continuations to resume outside the lock.
    private func finishCommit(
        _ core: JournalCore, batch: [(UInt64, JournalRecord)], failure: String?, closing: Bool
    ) -> [(CheckedContinuation<Void, any Error>, Result<Void, any Error>)] {
        state.withLock { s in
            var out: [(CheckedContinuation<Void, any Error>, Result<Void, any Error>)] = []
            s.durableSequence = core.durable.lastSequence
            s.statistics.durableSequence = s.durableSequence
            s.statistics.syncs = core.syncCount
            s.statistics.bytesWritten = core.bytesWritten
            s.statistics.segmentsCreated = core.segmentsCreated
            s.statistics.checkpoints = core.checkpointsWritten
            if let failure {
                s.statistics.lastError = failure
                // Keep the records: they go to a new segment at the next attempt.
                s.pending = batch + s.pending
                s.pendingBytes += batch.reduce(0) { $0 + Self.estimatedSize($1.1) }
            } else if !batch.isEmpty {
                s.statistics.commits += 1
                s.statistics.lastError = nil
            }
            let failedUpTo = failure == nil ? 0 : (batch.last.map { $0.0 &+ $0.1.sequenceCount &- 1 } ?? 0)
            var waiting: [(UInt64, CheckedContinuation<Void, any Error>)] = []
            for (seq, c) in s.waiters {
                if seq <= s.durableSequence {
                    out.append((c, .success(())))
                } else if closing || seq <= failedUpTo {
                    out.append((c, .failure(closing ? JournalError.closed : JournalError.commitFailed(failure ?? ""))))
                } else {
                    waiting.append((seq, c))
                }
            }
            s.waiters = waiting
            if closing {
                s.finished = true
                s.closeError = failure
                for c in s.closeWaiters {
                    out.append((c, failure.map { .failure(JournalError.commitFailed($0)) } ?? .success(())))
                }
                s.closeWaiters = []
            }
            return out
        }
    }

    private func nanoseconds(_ d: Duration) -> Int64 {
        let (s, a) = d.components
        return s * 1_000_000_000 + a / 1_000_000_000
    }
}
