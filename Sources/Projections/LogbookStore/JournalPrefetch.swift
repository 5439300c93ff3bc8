// SPDX-License-Identifier: MIT
internal import Foundation
internal import LogbookJournal

/// Reads a journal tail on a thread of its own, a batch ahead of the index writer.
///
/// Why: a rebuild did its two halves in turn — parse a segment (framing, CRC-32C, the SHA-256
/// chain, decoding), then project it into SQLite — and each takes about as long as the other,
/// so the writer ran at half the bare read rate. With the next batch parsed while the current
/// one is written, a rebuild runs at the pace of the slower half. At most ``depth`` batches
/// wait, so memory stays at a few segments' records whatever the journal's length.
final class JournalPrefetch: @unchecked Sendable {
    /// One poll's result, with the tail's state after it.
    struct Batch {
        var entries: [JournalEntry]
        var lastSequence: UInt64
        var position: TailPosition?
        var recordsRead: Int
    }

    /// Batches parsed ahead of the one being written.
    static let depth = 1

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var ready: [Result<Batch, any Error>] = []
    private var cancelled = false
    private var running = true

    /// Starts reading `tail` in batches of up to `maxEntries` records; the last batch is empty.
    init(_ tail: JournalTail, maxEntries: Int) {
        let thread = Thread { [self] in
            read(tail, maxEntries: maxEntries)
        }
        thread.name = "logbook.journal-prefetch"
        thread.start()
    }

    /// The next batch, in order: empty once the tail is exhausted. Rethrows the reader's error.
    func next() throws -> Batch {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty { condition.wait() }
        let result = ready.removeFirst()
        condition.broadcast()
        return try result.get()
    }

    /// Stops the reader and waits for its thread to end (call before returning, also on error).
    func stop() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while running { condition.wait() }
        condition.unlock()
    }

    private func read(_ start: JournalTail, maxEntries: Int) {
        var tail = start
        while true {
            let result = Result { () throws -> Batch in
                let entries = try tail.poll(maxEntries: maxEntries)
                return Batch(entries: entries, lastSequence: tail.lastSequence, position: tail.position, recordsRead: tail.recordsRead)
            }
            let last: Bool
            switch result {
            case .success(let batch): last = batch.entries.isEmpty
            case .failure: last = true
            }
            condition.lock()
            while ready.count >= Self.depth, !cancelled { condition.wait() }
            if !cancelled { ready.append(result) }
            let stop = cancelled || last
            if stop {
                running = false
            }
            condition.broadcast()
            condition.unlock()
            if stop { return }
        }
    }
}
