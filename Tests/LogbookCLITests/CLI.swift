// SPDX-License-Identifier: MIT
import Foundation
import LogbookTestSupport

/// Runs the built `logbook` as a person or a script would: its exit status, stdout and stderr.
struct CLI {
    /// The configuration file every command gets (`--config`).
    let config: String

    struct Result {
        var status: Int32
        var out: String
        var err: String

        /// stdout parsed as a JSON object.
        func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] else {
                throw CLIFailure("not a JSON object: \(out.prefix(300))")
            }
            return object
        }
    }

    @discardableResult
    func run(_ args: [String], environment: [String: String] = [:]) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestPaths.product("logbook"))
        p.arguments = ["--config", config] + args
        var env = ProcessInfo.processInfo.environment
        env["TZ"] = "UTC"
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }

    /// Runs and requires exit 0.
    @discardableResult
    func ok(_ args: [String]) throws -> Result {
        let r = try run(args)
        guard r.status == 0 else { throw CLIFailure("logbook \(args.joined(separator: " ")) exited \(r.status): \(r.err)") }
        return r
    }

    /// A copy of a recorded drive's state directory (journal and signing key) with a config
    /// that names it, in `dir`: the CLI may write to it without disturbing other tests.
    static func onCopy(of drive: RecordedDrives.Drive, in dir: TemporaryDirectory) async throws -> CLI {
        let journal = try await RecordedDrives.shared.journal(drive)
        let state = (journal as NSString).deletingLastPathComponent
        let copy = dir.file("state")
        try FileManager.default.copyItem(atPath: state, toPath: copy)
        try? FileManager.default.removeItem(atPath: copy + "/cache")
        let config = dir.file("logbookd.toml")
        try """
            state_dir = "\(copy)"
            runtime_dir = "\(dir.file("run"))"
            [[vehicle]]
            id = "golf"
            name = "Golf"
            driver = "Sam"

            """.write(toFile: config, atomically: true, encoding: .utf8)
        return CLI(config: config)
    }
}

struct CLIFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
