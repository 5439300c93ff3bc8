// SPDX-License-Identifier: MIT

/// The journal's byte-level parsers opened to the rest of the package for the fuzzer
/// (`logbook-fuzz segment`): what `verify`, recovery and the reader run on a segment file.
package enum SegmentInspection {
    /// What parsing a byte array found.
    package struct Summary: Sendable, Equatable {
        package var records: Int
        package var validEnd: Int
        package var sealed: Bool
    }

    /// Parses `bytes` as the first segment of a journal (framing, record decoding, header,
    /// sequence and chain checks, open-trip tracking), with a block size of `blockSize`.
    package static func parseSegment(_ bytes: [UInt8], blockSize: Int? = nil) -> Summary {
        let c = SegmentContents.parse(bytes, name: SegmentName(firstSequence: 1, number: 1), blockSize: blockSize ?? Framing.blockSize)
        return Summary(records: c.records.count, validEnd: c.validEnd, sealed: c.sealed)
    }

    /// Decodes `payload` as one logical record (the codec alone, no framing); false when the
    /// codec rejects it.
    package static func decodesAsRecord(_ payload: [UInt8]) -> Bool {
        (try? RecordCodec.decode(payload)) != nil
    }

    /// The default block size, for callers outside the module.
    package static var defaultBlockSize: Int { Framing.blockSize }
}
