// SPDX-License-Identifier: MIT
internal import LogbookCore

#if canImport(Glibc)
    internal import Glibc
#endif

/// A populated place of the bundle.
public struct PopulatedPlace: Sendable, Hashable {
    /// GeoNames id.
    public var id: UInt32
    public var name: String
    /// ISO 3166-1 alpha-2.
    public var countryCode: String
    public var latitude: Double
    public var longitude: Double
    public var population: UInt32
}

/// The offline place-name bundle (`places.bin` + `places.manifest.json`), memory-mapped.
///
/// Loading checks everything before anything is trusted: the manifest, the SHA-256 of the
/// file, the layout, and every row (coordinates in range and in their grid cell, names
/// non-empty UTF-8, country codes valid, ids unique). The pages touched while checking are
/// handed back to the kernel afterwards, so a long-running process pays only for the few
/// pages its lookups read.
public final class PlaceBundle: @unchecked Sendable {
    // @unchecked: the mapping is read-only (PROT_READ) and never changes after init.
    public let manifest: PlaceBundleManifest
    let layout: PlaceBundleLayout
    let bytes: UnsafeRawBufferPointer

    /// The number of places.
    public var count: Int { layout.rows }

    /// Loads `places.bin` and `places.manifest.json` from `directory`.
    public static func load(directory: String) throws(PlaceBundleError) -> PlaceBundle {
        let manifestPath = directory + "/places.manifest.json"
        let text = try BundleFile.read(manifestPath, limit: 65_536)
        let manifest = try PlaceBundleManifest(parsing: text)
        return try PlaceBundle(path: directory + "/" + manifest.file, manifest: manifest)
    }

    init(path: String, manifest: PlaceBundleManifest) throws(PlaceBundleError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable("cannot open \(path): \(BundleFile.lastError())") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable("cannot stat \(path): \(BundleFile.lastError())") }
        let size = Int(info.st_size)
        guard size == manifest.bytes else {
            throw .invalid("\(path) has \(size) bytes, the manifest says \(manifest.bytes)")
        }
        // Hash with read(2) into one buffer: the page cache holds the file, not this process.
        let digest = try BundleFile.sha256(fd: fd, path: path)
        guard digest == manifest.sha256 else { throw .checksumMismatch(expected: manifest.sha256, found: digest) }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw .unreadable("cannot map \(path): \(BundleFile.lastError())")
        }
        let mapped = UnsafeRawBufferPointer(start: base, count: size)
        do {
            let layout = try PlaceBundleLayout.read(mapped)
            guard layout.rows == manifest.rows else {
                throw PlaceBundleError.invalid("\(layout.rows) rows, the manifest says \(manifest.rows)")
            }
            self.layout = layout
            self.bytes = mapped
            self.manifest = manifest
            try validateRows()
            madvise(base, size, MADV_DONTNEED)
        } catch {
            munmap(base, size)
            throw error as? PlaceBundleError ?? .invalid("\(error)")
        }
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }

    /// The place in row `index` (0 ..< ``count``).
    public func place(at index: Int) -> PopulatedPlace {
        let at = layout.rowsOffset + index * PlaceBundleLayout.rowSize
        let nameAt = layout.namesOffset + Int(bytes.u32(at + 16))
        let nameLength = Int(bytes[at + 20])
        return PopulatedPlace(
            id: bytes.u32(at + 8), name: String(decoding: bytes[nameAt..<(nameAt + nameLength)], as: UTF8.self),
            countryCode: String(decoding: bytes[(at + 21)..<(at + 23)], as: UTF8.self),
            latitude: Double(bytes.i32(at)) / layout.scale, longitude: Double(bytes.i32(at + 4)) / layout.scale,
            population: bytes.u32(at + 12))
    }

    /// Row `index`'s coordinates in degrees (the lookup's hot path: no strings).
    @inline(__always) func coordinates(_ index: Int) -> (Double, Double) {
        let at = layout.rowsOffset + index * PlaceBundleLayout.rowSize
        return (Double(bytes.i32(at)) / layout.scale, Double(bytes.i32(at + 4)) / layout.scale)
    }

    /// The first row of grid cell `cell` (and, for `cell + 1`, one past its last).
    @inline(__always) func cellStart(_ cell: Int) -> Int { Int(bytes.u32(layout.cellsOffset + cell * 4)) }

    /// The grid cell (row-major from the south-west) holding a coordinate.
    @inline(__always) func cell(latitude: Double, longitude: Double) -> (row: Int, column: Int) {
        let row = min(layout.latitudeCells - 1, max(0, Int((latitude + 90).rounded(.down))))
        let column = min(layout.longitudeCells - 1, max(0, Int((longitude + 180).rounded(.down))))
        return (row, column)
    }

    private func validateRows() throws(PlaceBundleError) {
        var previous = 0
        for cell in 0...layout.cellCount {
            let start = cellStart(cell)
            guard start >= previous, start <= layout.rows else { throw .invalid("grid index is not ascending at cell \(cell)") }
            previous = start
        }
        guard cellStart(0) == 0, previous == layout.rows else { throw .invalid("grid index does not cover the \(layout.rows) rows") }
        var ids: [UInt32] = []
        ids.reserveCapacity(layout.rows)
        var cell = 0
        for index in 0..<layout.rows {
            while cellStart(cell + 1) <= index { cell += 1 }
            let at = layout.rowsOffset + index * PlaceBundleLayout.rowSize
            let id = bytes.u32(at + 8)
            let (lat, lon) = coordinates(index)
            guard (-90...90).contains(lat), (-180...180).contains(lon) else {
                throw .invalid("place \(id): coordinates out of range (\(lat), \(lon))")
            }
            let home = self.cell(latitude: lat, longitude: lon)
            guard home.row * layout.longitudeCells + home.column == cell else { throw .invalid("place \(id) is filed in the wrong grid cell") }
            let nameAt = Int(bytes.u32(at + 16)), nameLength = Int(bytes[at + 20])
            guard nameLength > 0, nameAt + nameLength <= layout.namesLength,
                String(validating: bytes[(layout.namesOffset + nameAt)..<(layout.namesOffset + nameAt + nameLength)], as: UTF8.self) != nil
            else { throw .invalid("place \(id): empty or invalid name") }
            guard CountryCodes.isValid(bytes[at + 21], bytes[at + 22]) else { throw .invalid("place \(id): invalid country code") }
            ids.append(id)
        }
        ids.sort()
        for i in ids.indices.dropFirst() where ids[i] == ids[i - 1] { throw .invalid("duplicate place id \(ids[i])") }
    }
}
