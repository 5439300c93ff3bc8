// SPDX-License-Identifier: MIT
import Foundation
import LogbookTestSupport

/// Runs the real tools the exports are judged by (xmllint, gpsbabel, chromium, Python).
enum Tool {
    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs `executable` with `arguments`; output goes through files (large outputs cannot
    /// fill a pipe and stall the tool). Kills it after `timeout`.
    static func run(_ executable: String, _ arguments: [String], timeout: Duration = .seconds(120)) async throws -> Result {
        let dir = try TemporaryDirectory("tool")
        defer { dir.remove() }
        _ = FileManager.default.createFile(atPath: dir.file("out"), contents: nil)
        _ = FileManager.default.createFile(atPath: dir.file("err"), contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("out")))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("err")))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        var deadline = TestDeadline(timeout)
        while p.isRunning, !deadline.passed { await deadline.sleep(for: .milliseconds(20)) }
        if p.isRunning {
            kill(p.processIdentifier, SIGKILL)
        }
        p.waitUntilExit()
        try out.close()
        try err.close()
        return Result(
            status: p.terminationStatus,
            output: (try? String(contentsOfFile: dir.file("out"), encoding: .utf8)) ?? "",
            errors: (try? String(contentsOfFile: dir.file("err"), encoding: .utf8)) ?? "")
    }

    /// The Python with the PyPI test tools (scripts/python-venv.sh), found once per run.
    static func python() async throws -> String {
        try await PythonPath.shared.path()
    }

    /// The checker script (`scripts/export_check.py`): GPX, GeoJSON, CSV and PNG checks.
    static var checker: String { TestPaths.script("export_check.py") }

    /// A file shipped with these tests (`Tests/LogbookExportTests/Schemas/…`).
    static func schema(_ name: String) -> String {
        TestPaths.packageRoot.appendingPathComponent("Tests/LogbookExportTests/Schemas/\(name)").path
    }
}

private actor PythonPath {
    static let shared = PythonPath()
    private var pending: Task<String, any Error>?

    /// One run of the script per test run, shared by concurrent callers.
    func path() async throws -> String {
        if let pending { return try await pending.value }
        let task = Task {
            let r = try await Tool.run("/bin/bash", [TestPaths.script("python-venv.sh")], timeout: .seconds(300))
            let path = r.output.trimmingCharacters(in: .whitespacesAndNewlines)
            guard r.status == 0, !path.isEmpty else { throw VenvFailed(message: r.errors) }
            return path
        }
        pending = task
        return try await task.value
    }

    struct VenvFailed: Error { let message: String }
}
