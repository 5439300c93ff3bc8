// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport

/// `scripts/interop-receiver.py` on a loopback port: an OwnTracks Recorder (appends, checks
/// each message against the OwnTracks JSON schema), an Overland receiver (de-duplicates like
/// Dawarich) or a Traccar OsmAnd port (de-duplicates by device and time).
final class InteropReceiver: @unchecked Sendable {
    // @unchecked: owned by one test.
    let kind: String
    let port: Int
    let log: String
    let extra: [String]
    private(set) var process: Child?

    init(_ kind: String, log: String, extra: [String] = []) throws {
        self.kind = kind
        self.log = log
        self.extra = extra
        port = freePort()
        try start()
    }

    static var schemaDirectory: String {
        let beside = TestPaths.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/schemas/owntracks").path
        return FileManager.default.fileExists(atPath: beside) ? beside : "/work/shared/schemas/owntracks"
    }

    func start() throws {
        var args = [TestPaths.script("interop-receiver.py"), kind, "--port", String(port), "--log", log] + extra
        if kind == "owntracks" { args += ["--schema", Self.schemaDirectory] }
        process = try Child("/usr/bin/python3", args, output: log + ".out")
        for _ in 0..<250 {
            if listening(port) { break }
            usleep(20_000)
        }
    }

    func stop() {
        process?.stop()
        process = nil
    }

    deinit { stop() }

    /// Every line the receiver logged.
    var entries: [JSONValue] {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }
    }
}

/// What a receiver holds, judged against the journal's points.
struct InteropTally {
    var messages = 0
    var valid = 0
    var received = 0
    var missing = 0
    var duplicates = 0
    var inOrder = true
    var batches = 0

    /// `keys`: the journal's points as the receiver keys them, in journal order.
    init(entries: [JSONValue], expected keys: [String], key: (JSONValue) -> String?) {
        var seen: [String: Int] = [:]
        var order: [String] = []
        for e in entries where e["stored"]?.boolValue == true || e["dup"]?.boolValue == true {
            messages += 1
            if e["valid"]?.boolValue != false { valid += 1 }
            guard let k = key(e) else { continue }
            seen[k, default: 0] += 1
            if seen[k] == 1 { order.append(k) }
        }
        duplicates = seen.values.reduce(0) { $0 + max(0, $1 - 1) }
        let expected = Set(keys)
        received = keys.filter { seen[$0] != nil }.count
        missing = keys.count - received
        let arrived = order.filter { expected.contains($0) }
        inOrder = arrived == keys.filter { seen[$0] != nil }
    }
}
