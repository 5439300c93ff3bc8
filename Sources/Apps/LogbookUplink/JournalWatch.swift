// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookJournal
#if canImport(Glibc)
    import Glibc
#endif

/// A cheap "has the journal changed?" test: the directory's and the newest segment's
/// modification times. Idle polls then cost two `stat`s and a listing instead of a parse
/// of the active segment.
struct JournalWatch {
    let directory: String
    private var last: (Int64, Int64)?

    init(directory: String) { self.directory = directory }

    /// True when something may have changed since the last call that returned true.
    mutating func changed() -> Bool {
        let now = (UplinkFile.modificationTime(directory) ?? -1, newestSegmentTime() ?? -1)
        defer { last = now }
        guard let last else { return true }
        return last != now || now.0 < 0
    }

    /// Forget the last observation (after a failed delivery the journal must be read again).
    mutating func reset() { last = nil }

    private func newestSegmentTime() -> Int64? {
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        var newest: String?
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasSuffix(".seg"), newest.map({ name > $0 }) ?? true { newest = name }
        }
        return newest.flatMap { UplinkFile.modificationTime(directory + "/" + $0) }
    }
}

/// Follows the journal ahead of a sink to know its newest sequence number and point time
/// (the lag `logbook uplink status` shows). Reads in bounded chunks.
public struct JournalHeadProbe: Sendable {
    private var stream: JournalStream
    /// Newest sequence number seen.
    public private(set) var sequence: UInt64
    /// GPS time of the newest point seen.
    public private(set) var pointTime: GPSTime?
    /// GPS time of the first point after the start position (the oldest not yet delivered).
    public private(set) var firstPointTime: GPSTime?

    public init(directory: String, after position: JournalPosition, pointTime: GPSTime? = nil) {
        stream = JournalStream(directory: directory, after: position)
        sequence = position.sequence
        self.pointTime = pointTime
    }

    /// Stands where `head` stands, a stream that has just read to the journal's end: what it
    /// delivered is not parsed a second time for the lag (a drained backlog was, at the status
    /// report after the drain: a fifth of the drain's CPU).
    public mutating func catchUp(with head: JournalStream, pointTime: GPSTime?) {
        stream = head
        sequence = head.position.sequence
        if let pointTime { self.pointTime = pointTime }
    }

    /// Reads what was appended since the last call (at most `maxReads` chunks).
    public mutating func advance(maxReads: Int = 64) throws {
        for _ in 0..<maxReads {
            let items = try stream.read(maxPoints: 8192)
            if items.isEmpty { return }
            for item in items {
                switch item {
                case .entry(let e):
                    if case .points(_, let p) = e.record {
                        sequence = max(sequence, e.sequence + UInt64(max(p.count, 1)) - 1)
                        if let t = p.last?.time { pointTime = t }
                        if firstPointTime == nil { firstPointTime = p.first?.time }
                    } else {
                        sequence = max(sequence, e.sequence)
                    }
                case .rewound(_, let to): sequence = to
                case .checkpoint: break
                }
            }
        }
    }
}
