// SPDX-License-Identifier: MIT
internal import Foundation
internal import GRDB
internal import LogbookCore
internal import LogbookJournal

/// What a catch-up or a rebuild did.
public struct CatchUpReport: Sendable, Hashable {
    /// Journal user records decoded (including the ones before the resume point in the
    /// segment that holds it): what catching up cost.
    public var recordsRead = 0
    /// Records applied to the index.
    public var recordsApplied = 0
    /// Points added.
    public var points = 0
    /// Trips started in the records applied.
    public var trips = 0
    /// User entries added.
    public var entries = 0
    /// The last journal sequence number the index now covers.
    public var indexedThrough: UInt64 = 0
    /// Set when the journal no longer held records the index had seen (lost in a power cut
    /// before they were durable, or another journal): the index went back to this sequence
    /// number and read on from there.
    public var rolledBackTo: UInt64?
    /// True when the index was rebuilt from the first record.
    public var rebuilt = false
    /// Wall time, seconds.
    public var seconds = 0.0
}

/// How far a catch-up or rebuild has got, for a progress bar.
public struct IndexProgress: Sendable, Hashable {
    /// The last sequence number indexed so far.
    public var sequence: UInt64
    /// Roughly the journal's last sequence number (the first of its last segment).
    public var estimatedEnd: UInt64
    /// Points indexed so far in this run.
    public var points: Int
}

extension TripIndex {
    /// Brings the index up to the end of the journal: O(new records) plus one segment.
    ///
    /// It first checks that the journal still holds the record the index ends at (its chain
    /// head). If not — a power cut lost records the index had seen, or the file indexes
    /// another journal — it rolls back to the newest earlier position the journal still
    /// holds, or rebuilds from scratch when there is none. Each transaction covers whole
    /// segments and advances `indexed_through_seq` with the rows it adds, so a kill -9 leaves
    /// a consistent index that the next catch-up continues.
    public func catchUp(progress: ((IndexProgress) -> Void)? = nil) throws(TripIndexError) -> CatchUpReport {
        let clock = ContinuousClock(), started = clock.now
        var report = CatchUpReport()
        let estimatedEnd = Self.estimatedEnd(of: journalDirectory)
        attempts: for _ in 0..<8 {
            let state = try mapping { try pool.read { try Self.state($0) } }
            var tail = state.sequence == 0
                ? JournalTail(directory: journalDirectory, after: 0) : JournalTail(directory: journalDirectory, resumingAfter: state)
            var expected = state
            while true {
                let entries: [JournalEntry]
                do {
                    entries = try tail.poll(maxEntries: options.recordsPerTransaction)
                } catch is JournalTail.PositionMismatch {
                    report.recordsRead += tail.recordsRead
                    guard var rolled = try rollBack(from: state, progress: progress) else { continue attempts }
                    rolled.recordsRead += report.recordsRead
                    rolled.seconds = (clock.now - started).seconds
                    return rolled
                } catch {
                    throw .journal("\(journalDirectory): \(error)")
                }
                guard !entries.isEmpty, let position = tail.position else {
                    report.recordsRead += tail.recordsRead
                    break attempts
                }
                let committed = try mapping {
                    try pool.writeWithoutTransaction { db -> Bool in
                        var committed = false
                        try db.inTransaction(.immediate) {
                            // Another process may have caught up (or rolled back) meanwhile.
                            guard try Self.state(db) == expected else { return .rollback }
                            var projector = IndexProjector(db: db)
                            for e in entries { try projector.apply(e) }
                            try projector.flush()
                            try Self.setState(db, position)
                            report.add(projector.statistics)
                            committed = true
                            return .commit
                        }
                        return committed
                    }
                }
                guard committed else {
                    report.recordsRead += tail.recordsRead
                    continue attempts
                }
                expected = position
                report.indexedThrough = position.sequence
                progress?(IndexProgress(sequence: position.sequence, estimatedEnd: estimatedEnd, points: report.points))
            }
        }
        report.indexedThrough = try mapping { try pool.read { try Self.state($0).sequence } }
        report.seconds = (clock.now - started).seconds
        return report
    }

    /// Empties the index and reads the whole journal again, in one transaction: readers see
    /// the old index until it commits, and a kill -9 leaves the old one in place.
    public func rebuild(progress: ((IndexProgress) -> Void)? = nil) throws(TripIndexError) -> CatchUpReport {
        let clock = ContinuousClock(), started = clock.now
        guard var report = try reset(to: .start, progress: progress) else { throw .busy(path) }
        report.seconds = (clock.now - started).seconds
        return report
    }

    /// The journal no longer holds the record at `state`: go back to the newest remembered
    /// position it still holds (or to the start) and read on from there.
    /// Nil when another process changed the index meanwhile (catch up again).
    private func rollBack(from state: TailPosition, progress: ((IndexProgress) -> Void)?) throws(TripIndexError) -> CatchUpReport? {
        let candidates = try mapping {
            try pool.read { db in
                try Row.fetchAll(db, sql: "SELECT seq, chain_head FROM positions WHERE seq < ? ORDER BY seq DESC", arguments: [Int64(bitPattern: state.sequence)])
                    .map { TailPosition(sequence: UInt64(bitPattern: $0[0]), chainHead: [UInt8]($0[1] as Data)) }
            }
        }
        var target = TailPosition.start
        for c in candidates {
            let found: TailPosition?
            do { found = try JournalTail.position(at: c.sequence, in: journalDirectory) } catch {
                throw .journal("\(journalDirectory): \(error)")
            }
            if found == c {
                target = c
                break
            }
        }
        return try reset(to: target, expecting: state, progress: progress)
    }

    /// In one transaction: removes what the index holds after `target` (going further back
    /// so that no trip is cut in two), then reads the journal on from there. Nil when the
    /// index no longer ends at `expecting` (another process changed it meanwhile).
    private func reset(
        to target: TailPosition, expecting: TailPosition? = nil, progress: ((IndexProgress) -> Void)?
    ) throws(TripIndexError) -> CatchUpReport? {
        let estimatedEnd = Self.estimatedEnd(of: journalDirectory)
        var report = CatchUpReport()
        report.rebuilt = target.sequence == 0
        var done = false
        try mapping {
            try pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    if let expecting, try Self.state(db) != expecting { return .rollback }  // someone else did it
                    let from = try Self.removeRows(after: target.sequence, db)
                    if !report.rebuilt { report.rolledBackTo = from }
                    // The journal is parsed a batch ahead on another thread (JournalPrefetch).
                    let reader = JournalPrefetch(JournalTail(directory: journalDirectory, after: from), maxEntries: options.recordsPerTransaction)
                    defer { reader.stop() }
                    var batch: JournalPrefetch.Batch
                    while true {
                        do { batch = try reader.next() } catch {
                            throw TripIndexError.journal("\(journalDirectory): \(error)")
                        }
                        report.recordsRead = batch.recordsRead
                        if batch.entries.isEmpty { break }
                        var projector = IndexProjector(db: db)
                        for e in batch.entries { try projector.apply(e) }
                        try projector.flush()
                        report.add(projector.statistics)
                        progress?(IndexProgress(sequence: batch.lastSequence, estimatedEnd: estimatedEnd, points: report.points))
                    }
                    guard let position = batch.position else {
                        throw TripIndexError.journal("\(journalDirectory): no record ends at sequence \(from)")
                    }
                    try Self.setState(db, position)
                    report.indexedThrough = position.sequence
                    done = true
                    return .commit
                }
            }
        }
        return done ? report : nil
    }

    /// Deletes the rows after `sequence`, widened so that no trip is left half there;
    /// returns the sequence number the index now ends at.
    private static func removeRows(after sequence: UInt64, _ db: Database) throws -> UInt64 {
        var p = Int64(bitPattern: sequence)
        while let s = try Int64.fetchOne(db, sql: "SELECT min(start_seq) FROM trips WHERE last_seq > ? AND start_seq <= ?", arguments: [p, p]) {
            p = s - 1
        }
        if p == 0 {
            for table in ["point_chunks", "gaps", "trips", "entries", "positions", "corrected_trips", "corrected_sources"] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
        } else {
            try db.execute(sql: """
                DELETE FROM point_chunks WHERE trip_id IN (SELECT id FROM trips WHERE start_seq > :p);
                DELETE FROM gaps WHERE trip_id IN (SELECT id FROM trips WHERE start_seq > :p);
                DELETE FROM trips WHERE start_seq > :p;
                DELETE FROM entries WHERE seq > :p;
                DELETE FROM positions WHERE seq > :p;
                """, arguments: ["p": p])
            try CorrectedTrips.rebuild(db)
        }
        try db.execute(sql: "UPDATE index_state SET indexed_through_seq = ?, chain_head = x''", arguments: [p])
        return UInt64(p)
    }

    static func state(_ db: Database) throws -> TailPosition {
        guard let row = try Row.fetchOne(db, sql: "SELECT indexed_through_seq, chain_head FROM index_state WHERE id = 1") else {
            throw TripIndexError.damaged("index_state is empty")
        }
        let seq: Int64 = row[0]
        let head: Data = row[1]
        return TailPosition(sequence: UInt64(bitPattern: seq), chainHead: [UInt8](head))
    }

    /// Stores the fingerprint, and remembers it among the rollback positions (kept at least
    /// 32 sequence numbers apart below the newest two, at most 64).
    static func setState(_ db: Database, _ p: TailPosition) throws {
        let seq = Int64(bitPattern: p.sequence)
        try db.execute(sql: "UPDATE index_state SET indexed_through_seq = ?, chain_head = ? WHERE id = 1", arguments: [seq, Data(p.chainHead)])
        try db.execute(sql: "INSERT OR REPLACE INTO positions VALUES (?, ?)", arguments: [seq, Data(p.chainHead)])
        let below = try Int64.fetchAll(db, sql: "SELECT seq FROM positions WHERE seq < ? ORDER BY seq DESC LIMIT 2", arguments: [seq])
        if below.count == 2, below[0] - below[1] < 32 {
            try db.execute(sql: "DELETE FROM positions WHERE seq = ?", arguments: [below[0]])
        }
        try db.execute(sql: "DELETE FROM positions WHERE seq < (SELECT seq FROM positions ORDER BY seq DESC LIMIT 1 OFFSET 63)")
    }

    /// Roughly the journal's last sequence number, from the segment names (their first
    /// sequence numbers) and sizes: enough for a progress bar.
    static func estimatedEnd(of directory: String) -> UInt64 {
        let fm = FileManager.default
        let segments = ((try? fm.contentsOfDirectory(atPath: directory)) ?? []).compactMap { name -> (UInt64, Int)? in
            guard name.hasSuffix(".seg"), name.count == 29, let first = UInt64(name.prefix(16), radix: 16) else { return nil }
            let size = (try? fm.attributesOfItem(atPath: directory + "/" + name))?[.size] as? Int ?? 0
            return (first, size)
        }.sorted { $0.0 < $1.0 }
        guard let last = segments.last else { return 0 }
        let before = segments.dropLast().reduce(0) { $0 + $1.1 }
        // Sequence numbers per byte so far; 1/30 (a point's share of a record) at first.
        let perByte = last.0 > 1 && before > 0 ? Double(last.0 - 1) / Double(before) : 1.0 / 30
        return last.0 + UInt64(Double(last.1) * perByte)
    }
}

extension CatchUpReport {
    mutating func add(_ s: IndexProjector.Statistics) {
        recordsApplied += s.records
        points += s.points
        trips += s.tripsStarted
        entries += s.entries
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
