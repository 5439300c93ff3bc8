// SPDX-License-Identifier: MIT
import Foundation
import LogbookPOSIX
import LogbookTestSupport
import Testing

/// The one writer of replaced files: modes, refusals, nothing left behind.
@Suite(.serialized) struct AtomicFileTests {
    static func kind(_ path: String) -> mode_t {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : 0
    }

    static func mode(_ path: String) -> mode_t {
        var st = stat()
        return stat(path, &st) == 0 ? st.st_mode & 0o7777 : 0
    }

    @Test func replacesARegularFileWithTheGivenModeWhateverTheUmask() throws {
        let dir = try TemporaryDirectory("af")
        defer { dir.remove() }
        let path = dir.file("live.json")
        for (mask, wanted) in [(mode_t(0o000), UInt32(0o644)), (0o077, 0o644), (0o000, 0o600)] {
            let old = umask(mask)
            defer { umask(old) }
            try AtomicFile.replace(path, with: Array("{\"m\":\(wanted)}".utf8), mode: wanted)
            #expect(Self.mode(path) == mode_t(wanted), "umask \(String(mask, radix: 8))")
            #expect(FileManager.default.contents(atPath: path) == Data("{\"m\":\(wanted)}".utf8))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["live.json"])
    }

    @Test func refusesFIFOsSymlinksDevicesAndDirectories() throws {
        let dir = try TemporaryDirectory("af")
        defer { dir.remove() }
        let target = dir.file("target")
        try "keep".write(toFile: target, atomically: false, encoding: .utf8)
        #expect(mkfifo(dir.file("fifo"), 0o600) == 0)
        #expect(symlink(target, dir.file("link")) == 0)
        #expect(symlink(dir.file("nowhere"), dir.file("dangling")) == 0)
        #expect(mkdir(dir.file("dir"), 0o700) == 0)
        var cases: [(String, FileKind)] = [
            ("fifo", .fifo), ("link", .symlink), ("dangling", .symlink), ("dir", .directory),
        ]
        if mknod(dir.file("null"), S_IFCHR | 0o666, (1 << 8) | 3) == 0 { cases.append(("null", .characterDevice)) }
        for (name, kind) in cases {
            let path = dir.file(name)
            let before = Self.kind(path)
            #expect(throws: AtomicFileError.notRegularFile(path: path, kind: kind)) {
                try AtomicFile.replace(path, with: Array("x".utf8), mode: 0o644)
            }
            #expect(Self.kind(path) == before, "\(name) was replaced")
        }
        #expect(FileManager.default.contents(atPath: target) == Data("keep".utf8))
        #expect(!FileManager.default.fileExists(atPath: dir.file("nowhere")), "a dangling symlink was followed")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(!names.contains { $0.contains(".tmp") }, "\(names)")
    }

    @Test func aMissingDirectoryIsASystemError() {
        #expect(throws: AtomicFileError.self) {
            try AtomicFile.replace("/nonexistent-dir-\(getpid())/file", with: [1], mode: 0o644)
        }
    }

    @Test func aDiscardedFileLeavesNothing() throws {
        let dir = try TemporaryDirectory("af")
        defer { dir.remove() }
        do {
            let file = try AtomicFile(path: dir.file("out"), mode: 0o644)
            try file.write(Array("half".utf8))
            file.discard()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
