// SPDX-License-Identifier: MIT
/// The on-disk layout of `places.bin` (docs/places.md; written by scripts/build-places-bundle.py).
///
/// All integers little-endian. A header, then a grid of 1° cells (180 × 360, row-major from
/// the south-west, `cells + 1` u32 start indices into the rows), the rows sorted by cell (24
/// bytes each), and the UTF-8 names. Everything is found by offset, so the file can be
/// memory-mapped and read in place.
struct PlaceBundleLayout: Sendable, Equatable {
    static let magic: [UInt8] = Array("LBPLACE1".utf8)
    static let version: UInt32 = 1
    static let headerSize = 44
    static let rowSize = 24

    var rows: Int
    var cellDegrees: Int
    var latitudeCells: Int
    var longitudeCells: Int
    var cellsOffset: Int
    var rowsOffset: Int
    var namesOffset: Int
    var namesLength: Int
    /// Coordinates are stored as integers: degrees × `scale`.
    var scale: Double

    var cellCount: Int { latitudeCells * longitudeCells }

    /// Reads and checks the header against the file's size.
    static func read(_ bytes: UnsafeRawBufferPointer) throws(PlaceBundleError) -> PlaceBundleLayout {
        guard bytes.count >= headerSize, Array(bytes[0..<8]) == magic else {
            throw .invalid("not a place bundle (bad magic)")
        }
        guard bytes.u32(8) == version else { throw .invalid("format version \(bytes.u32(8)), this logbook reads \(version)") }
        guard Int(bytes.u16(22)) == rowSize else { throw .invalid("row size \(bytes.u16(22)), expected \(rowSize)") }
        // After magic and version: rows u32, cell° u16, lat cells u16, lon cells u16, row size
        // u16, cells/rows/names offsets u32, names length u32, scale u32.
        let l = PlaceBundleLayout(
            rows: Int(bytes.u32(12)), cellDegrees: Int(bytes.u16(16)), latitudeCells: Int(bytes.u16(18)),
            longitudeCells: Int(bytes.u16(20)), cellsOffset: Int(bytes.u32(24)), rowsOffset: Int(bytes.u32(28)),
            namesOffset: Int(bytes.u32(32)), namesLength: Int(bytes.u32(36)), scale: Double(bytes.u32(40)))
        try l.check(fileSize: bytes.count)
        return l
    }

    private func check(fileSize: Int) throws(PlaceBundleError) {
        guard cellDegrees == 1, latitudeCells == 180, longitudeCells == 360 else {
            throw .invalid("unexpected grid \(cellDegrees)° × \(latitudeCells) × \(longitudeCells)")
        }
        guard scale >= 1e5 else { throw .invalid("coordinate scale \(scale) is too coarse") }
        guard cellsOffset == Self.headerSize, rowsOffset == cellsOffset + (cellCount + 1) * 4,
            namesOffset == rowsOffset + rows * Self.rowSize, namesOffset + namesLength == fileSize
        else { throw .invalid("section offsets do not add up to the file size (\(fileSize) bytes)") }
    }
}

extension UnsafeRawBufferPointer {
    @inline(__always) func u16(_ at: Int) -> UInt16 { UInt16(littleEndian: loadUnaligned(fromByteOffset: at, as: UInt16.self)) }
    @inline(__always) func u32(_ at: Int) -> UInt32 { UInt32(littleEndian: loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
    @inline(__always) func i32(_ at: Int) -> Int32 { Int32(littleEndian: loadUnaligned(fromByteOffset: at, as: Int32.self)) }
}
