// SPDX-License-Identifier: MIT

extension JournalReader {
    /// The newest checkpoint at or before sequence `limit` (a report's seal), reading from the
    /// segment holding `limit` backwards one segment at a time: O(a segment or two), not the
    /// whole journal as ``checkpoints()`` is. Nil when there is none.
    public func lastCheckpoint(upTo limit: UInt64) throws -> JournalCheckpoint? {
        let fs = PosixFileSystem()
        let names = SegmentName.segments(in: try fs.list(directory)).filter { $0.firstSequence <= max(limit, 1) }
        for start in names.reversed() {
            var found: JournalCheckpoint?
            var key: [UInt8] = []
            try Self.walk(fs: fs, directory: directory, limit: limit, startingAt: start) { _, seq, record in
                switch record {
                case .header(let h): key = h.publicKey
                case .checkpoint(let cp) where seq <= limit: found = JournalCheckpoint(cp, sequence: seq, publicKey: key)
                default: break
                }
                return true
            }
            if let found { return found }
        }
        return nil
    }
}
