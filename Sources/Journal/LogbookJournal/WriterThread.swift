// SPDX-License-Identifier: MIT
import LogbookCore
import Logging
internal import LogbookPOSIX

extension JournalWriter {
    /// The most one commit takes, and what triggers a commit before its interval: 64 KiB (or a
    /// quarter segment). A backlog (after I/O errors, a full disk, or a burst) still rotates at
    /// the segment cap, and a commit's buffers stay small whatever the backlog (a bigger batch
    /// would only save fdatasyncs).
    var commitBatchBytes: Int { min(64 << 10, max(4 << 10, configuration.segmentSize / 4)) }

    /// The writer thread: wait for the interval or a wake-up, take the pending records, commit.
    func run(_ core: JournalCore) {
        let interval = UInt64(nanoseconds(configuration.commitInterval))
        let checkpointEvery = UInt64(nanoseconds(configuration.checkpointInterval))
        let maxBatchBytes = commitBatchBytes
        let clock = self.clock
        // Nothing pending: no deadline, sleep until an append wakes us (no timed wake-ups while
        // parked). Else commit one interval after the later of the last commit and the oldest
        // pending record, so a record waits at most one interval.
        func deadline(_ s: WriterState) -> UInt64? { s.pending.isEmpty ? nil : max(s.lastCommit, s.pendingSince) &+ interval }
        while true {
            // On a driven clock the wait has no real deadline: each move of the clock wakes it
            // and `ready` compares the deadline with the clock.
            let (batch, checkpoint, closing) = state.wait(
                until: { clock.isDriven ? nil : deadline($0) },
                ready: { s in
                    s.commitNow || s.closing || (clock.isDriven && deadline(s).map { clock.nanoseconds() >= $0 } == true)
                },
                then: { s -> ([(UInt64, JournalRecord)], Bool, Bool) in
                    let now = clock.nanoseconds()
                    // Take at most maxBatchBytes per commit; the rest follows at once.
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
            var diskFull = false
            if !batch.isEmpty {
                do { try core.commit(batch, checkpoint: checkpoint) } catch {
                    failure = "\(error)"
                    diskFull = JournalIOError.isDiskFull(error)
                }
            }
            if closing && failure == nil {
                do { try core.seal() } catch { failure = "\(error)" }
            }
            logOutcome(failure, diskFull: diskFull, batch: batch.count)
            let resume = finishCommit(core, batch: batch, failure: failure, diskFull: diskFull, closing: closing)
            if failure == nil, !batch.isEmpty {
                // The contract the power-cut harness reads on the console (docs/journal.md):
                // printed only after the fdatasync returned.
                logger.debug(
                    "journal committed",
                    metadata: [
                        "durable_seq": "\(core.durable.lastSequence)",
                        "open_trips": "\(core.durable.openTrips.keys.map(\.rawValue).sorted().map(String.init).joined(separator: ","))",
                    ])
            }
            // Unlock before close() returns, so the directory can be opened again at once.
            if closing { lock.release() }
            for (c, r) in resume { c.resume(with: r) }
            if closing { return }
        }
    }

    /// A failing disk is logged when it starts, then once a minute while it lasts (a full
    /// disk retried every commit interval must not fill the log too), and when it ends.
    private func logOutcome(_ failure: String?, diskFull: Bool, batch: Int) {
        guard failure != nil || batch > 0 else { return }
        let now = clock.nanoseconds()
        let (since, due, pending): (UInt64?, Bool, Int) = state.withLock { s in
            let since = s.failingSince
            if failure != nil {
                if s.failingSince == nil { s.failingSince = now }
                let due = since == nil || now &- s.lastFailureLog >= 60_000_000_000
                if due { s.lastFailureLog = now }
                return (since, due, s.pending.count + batch)
            }
            s.failingSince = nil
            return (since, false, s.pending.count)
        }
        if let failure, due {
            let message = diskFull
                ? "journal: disk full; records wait in memory and the commit is retried every interval"
                : "journal commit failed; the segment is abandoned and a new one will be started"
            logger.error(
                "\(message)",
                metadata: ["error": "\(failure)", "records_waiting": "\(pending)", "failing_s": "\(since.map { (now &- $0) / 1_000_000_000 } ?? 0)"])
        } else if failure == nil, let since {
            logger.notice(
                "journal: writing again; what waited in memory is durable",
                metadata: ["failed_for_s": "\((now &- since) / 1_000_000_000)", "records_waiting": "\(pending)"])
        }
    }

    /// Publishes the commit's outcome; returns the continuations to resume outside the lock.
    private func finishCommit(
        _ core: JournalCore, batch: [(UInt64, JournalRecord)], failure: String?, diskFull: Bool, closing: Bool
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
                s.statistics.diskFull = diskFull
                // Retry after a commit interval, not at once: a full disk must not spin a core.
                s.commitNow = false
                // Keep the records: they go to a new segment at the next attempt.
                s.pending = batch + s.pending
                s.pendingBytes += batch.reduce(0) { $0 + Self.estimatedSize($1.1) }
            } else if !batch.isEmpty {
                s.statistics.commits += 1
                s.statistics.lastError = nil
                s.statistics.diskFull = false
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
