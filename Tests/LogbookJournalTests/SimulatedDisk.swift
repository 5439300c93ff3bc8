// SPDX-License-Identifier: MIT
import LogbookCore
@testable import LogbookJournal

/// Thrown by ``SimulatedDisk`` when its fail point is reached: the "power cut".
struct PowerCut: Error {}

/// An in-memory disk with crash semantics after SQLite's crash VFS (test6.c) and LevelDB's
/// fault-injection env: only `fdatasync`ed bytes and `fsync(dir)`ed names are safe. At a crash
/// every 512-byte sector of every unsynced write is independently kept, dropped, zero-filled
/// or garbage-filled, unsynced size changes may or may not survive, and files whose directory
/// entry was never synced may vanish.
final class SimulatedDisk: JournalFileSystem {
    struct File {
        var current: [UInt8] = []
        var durable: [UInt8] = []
        /// Unsynced writes since the last fdatasync, in order.
        var unsynced: [(offset: Int, count: Int)] = []
    }

    var files: [String: File] = [:]
    /// Names whose creation reached the directory's disk copy.
    var durableNames: Set<String> = []
    var handles: [Int32: String] = [:]
    var nextHandle: Int32 = 3
    /// I/O operations so far, and the one that "cuts the power" (nil: never).
    var operations = 0
    var failAt: Int?

    private func tick() throws {
        operations += 1
        if let f = failAt, operations >= f { throw PowerCut() }
    }

    private func file(_ h: Int32) throws -> String {
        guard let p = handles[h] else { throw JournalIOError(operation: "handle", path: "\(h)", code: 9) }
        return p
    }

    func list(_ directory: String) throws -> [String] {
        files.keys.filter { $0.hasPrefix(directory + "/") }.map { String($0.dropFirst(directory.count + 1)) }
    }

    func create(_ path: String) throws -> Int32 {
        try tick()
        guard files[path] == nil else { throw JournalIOError(operation: "open", path: path, code: 17) }
        files[path] = File()
        return openHandle(path)
    }

    private func openHandle(_ path: String) -> Int32 {
        nextHandle += 1
        handles[nextHandle] = path
        return nextHandle
    }

    func openForWriting(_ path: String) throws -> Int32 {
        guard files[path] != nil else { throw JournalIOError(operation: "open", path: path, code: 2) }
        return openHandle(path)
    }

    func allocate(_ handle: Int32, size: Int) throws {
        try tick()
        let p = try file(handle)
        if let f = files[p], f.current.count < size {
            files[p]?.current.append(contentsOf: [UInt8](repeating: 0, count: size - f.current.count))
        }
    }

    func write(_ handle: Int32, _ bytes: [UInt8], at offset: Int) throws {
        let p = try file(handle)
        guard var f = files[p] else { return }
        if offset + bytes.count > f.current.count {
            f.current.append(contentsOf: [UInt8](repeating: 0, count: offset + bytes.count - f.current.count))
        }
        f.current.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
        f.unsynced.append((offset, bytes.count))
        files[p] = f
        try tick()  // the cut may come after the bytes reached the page cache
    }

    func sync(_ handle: Int32) throws {
        try tick()
        let p = try file(handle)
        guard var f = files[p] else { return }
        f.durable = f.current
        f.unsynced = []
        files[p] = f
    }

    func truncate(_ handle: Int32, size: Int) throws {
        try tick()
        let p = try file(handle)
        guard var f = files[p] else { return }
        if f.current.count > size { f.current.removeLast(f.current.count - size) }
        files[p] = f
    }

    func close(_ handle: Int32) { handles[handle] = nil }

    func syncDirectory(_ path: String) throws {
        try tick()
        durableNames = Set(files.keys)
    }

    func read(_ path: String) throws -> [UInt8]? { files[path]?.current }

    func remove(_ path: String) throws {
        try tick()
        files[path] = nil
    }

    /// The disk after a power cut, as seen at the next boot.
    func crash(_ rng: inout SplitMix64) {
        var after: [String: File] = [:]
        for (name, f) in files {
            // A file never made durable in its directory may vanish (LevelDB FaultEnv).
            if !durableNames.contains(name) && rng.next() % 2 == 0 { continue }
            var bytes = f.durable
            if f.current.count != f.durable.count && rng.next() % 2 == 0 {
                // The unsynced size change (allocate/extend/truncate) reached the disk.
                if f.current.count > bytes.count {
                    bytes.append(contentsOf: [UInt8](repeating: 0, count: f.current.count - bytes.count))
                } else {
                    bytes.removeLast(bytes.count - f.current.count)
                }
            }
            for w in f.unsynced {
                var s = w.offset - w.offset % 512
                while s < w.offset + w.count {
                    let lo = max(s, w.offset), hi = min(s + 512, w.offset + w.count, f.current.count)
                    s += 512
                    guard lo < hi else { continue }
                    let choice = rng.next() % 4
                    if choice == 0 { continue }  // dropped
                    if hi > bytes.count { bytes.append(contentsOf: [UInt8](repeating: 0, count: hi - bytes.count)) }
                    switch choice {
                    case 1: bytes.replaceSubrange(lo..<hi, with: f.current[lo..<hi])
                    case 2: bytes.replaceSubrange(lo..<hi, with: [UInt8](repeating: 0, count: hi - lo))
                    default:
                        var g = [UInt8](repeating: 0, count: hi - lo)
                        for i in stride(from: 0, to: g.count, by: 8) {
                            g[i] = UInt8(truncatingIfNeeded: rng.next())
                            if i + 1 < g.count { g[i + 1] = 0xA5 }
                        }
                        bytes.replaceSubrange(lo..<hi, with: g)
                    }
                }
            }
            after[name] = File(current: bytes, durable: bytes, unsynced: [])
        }
        files = after
        durableNames = Set(after.keys)
        handles = [:]
        failAt = nil
    }

    /// A copy (the disk image at some moment).
    func snapshot() -> SimulatedDisk {
        let d = SimulatedDisk()
        d.files = files
        d.durableNames = durableNames
        return d
    }
}
