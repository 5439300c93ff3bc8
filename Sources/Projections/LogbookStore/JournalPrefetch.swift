// SPDX-License-Identifier: MIT
internal import LogbookJournal
internal import LogbookPOSIX

/// Reads a journal tail on a thread of its own, a batch ahead of the index writer.
///
/// Why: a rebuild did its two halves in turn — parse a segment (framing, CRC-32C, the SHA-256
/// chain, decoding), then project it into SQLite — and each takes about as long as the other,
/// so the writer ran at half the bare read rate. With the next batch parsed while the current
/// one is written, a rebuild runs at the pace of the slower half. At most ``depth`` batches
/// wait, so memory stays at a few segments' records whatever the journal's length.
final class JournalPrefetch: Sendable {
    /// One poll's result, with the tail's state after it.
    struct Batch {
        var entries: [JournalEntry]
        var lastSequence: UInt64
        var position: TailPosition?
        var recordsRead: Int
    }

    /// Batches parsed ahead of the one being written.
    static let depth = 1

    private struct State {
        var ready: [Result<Batch, any Error>] = []
        var cancelled = false
        var running = true
    }

    private let state = ConditionLock(State())

    /// Starts reading `tail` in batches of up to `maxEntries` records; the last batch is empty.
    init(_ tail: JournalTail, maxEntries: Int) {
        do {
            _ = try NamedThread.start(name: "lb-prefetch") { [self] in read(tail, maxEntries: maxEntries) }
        } catch {
            state.signal { s in
                s.ready.append(.failure(error))
                s.running = false
            }
        }
    }

    /// The next batch, in order: empty once the tail is exhausted. Rethrows the reader's error.
    func next() throws -> Batch {
        let result = state.wait(until: { _ in nil }, ready: { !$0.ready.isEmpty }, then: { $0.ready.removeFirst() })
        state.signal()
        return try result.get()
    }

    /// Stops the reader and waits for its thread to end (call before returning, also on error).
    func stop() {
        state.signal { $0.cancelled = true }
        state.wait(until: { _ in nil }, ready: { !$0.running }, then: { _ in })
    }

    private func read(_ start: JournalTail, maxEntries: Int) {
        var tail = start
        while true {
            let result = Result { () throws -> Batch in
                let entries = try tail.poll(maxEntries: maxEntries)
                return Batch(entries: entries, lastSequence: tail.lastSequence, position: tail.position, recordsRead: tail.recordsRead)
            }
            let last = (try? result.get().entries.isEmpty) ?? true
            let stop = state.wait(
                until: { _ in nil }, ready: { $0.ready.count < Self.depth || $0.cancelled },
                then: { s -> Bool in
                    if !s.cancelled { s.ready.append(result) }
                    let stop = s.cancelled || last
                    if stop { s.running = false }
                    return stop
                })
            state.signal()
            if stop { return }
        }
    }
}
