// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    import Glibc
#endif

/// Runs files through a harness without libFuzzer (the ordinary build): a crash is a crash
/// of this process, so a failing input fails the test that replays it.
enum CorpusReplay {
    static func run(_ harness: Harness, paths: [String]) -> Int32 {
        var files: [String] = []
        for path in paths { files += list(path) }
        guard !files.isEmpty else {
            printError("logbook-fuzz: no input files in \(paths)")
            return 64
        }
        for file in files {
            guard let bytes = read(file) else {
                printError("logbook-fuzz: cannot read \(file)")
                return 66
            }
            bytes.withUnsafeBufferPointer { harness.run($0) }
        }
        print("logbook-fuzz: \(harness.rawValue): replayed \(files.count) inputs, no crash")
        return 0
    }

    /// A directory's regular files (sorted, not recursive), or the path itself.
    private static func list(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [path] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            names.append(path + "/" + name)
        }
        return names.sorted()
    }

    private static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n > 0 { bytes += chunk[0..<n] }
            if n < chunk.count { break }
        }
        return ferror(file) == 0 ? bytes : nil
    }
}

/// A line on standard error (unbuffered `write`: the C `stderr` global is not concurrency-safe).
func printError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
