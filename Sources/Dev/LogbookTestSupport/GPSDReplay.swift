// SPDX-License-Identifier: MIT
public import Foundation

/// A private gpsd on a free loopback port replaying a recorded log (`scripts/gpsreplay.py`).
///
/// Each replay has its own TMPDIR and port, so tests can run in parallel.
public final class GPSDReplay: @unchecked Sendable {
    // @unchecked: the Process and pipe are only touched from the test that owns the replay.
    public let port: Int
    public let gpsdPID: Int32
    public let process: Process
    private let tmp: TemporaryDirectory
    private let stderrPipe = Pipe()

    /// Starts the replay and returns once gpsd listens.
    ///
    /// - Parameters:
    ///   - log: path of the recorded log.
    ///   - realtime: pacing factor (0 = full speed).
    ///   - tcp: feed over TCP (no pty settle delay).
    ///   - port: a fixed port (to restart gpsd on the same one), or nil for a free one.
    ///   - startLine: skip the first packets of the log.
    public init(log: String, realtime: Double = 0, tcp: Bool = true, port: Int? = nil, startLine: Int = 0) throws {
        tmp = try TemporaryDirectory("gpsd")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        var args = [TestPaths.script("gpsreplay.py"), log, "--realtime", String(realtime)]
        if tcp { args.append("--tcp") }
        if let port { args += ["--port", String(port)] }
        if startLine > 0 { args += ["--start-line", String(startLine)] }
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["TMPDIR"] = tmp.path
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = stderrPipe
        try process.run()
        var port = 0
        var pid: Int32 = 0
        var buffer = ""
        let handle = out.fileHandleForReading
        while port == 0 || pid == 0 {
            let data = handle.availableData
            if data.isEmpty { break }
            buffer += String(decoding: data, as: UTF8.self)
            for line in buffer.split(separator: "\n") {
                if line.hasPrefix("PORT=") { port = Int(line.dropFirst(5)) ?? 0 }
                if line.hasPrefix("GPSD_PID=") { pid = Int32(line.dropFirst(9)) ?? 0 }
            }
        }
        guard port > 0, pid > 0 else {
            process.terminate()
            throw ReplayError.didNotStart(String(decoding: stderrPipe.fileHandleForReading.availableData, as: UTF8.self))
        }
        self.port = port
        self.gpsdPID = pid
    }

    /// `127.0.0.1:PORT`.
    public var address: String { "127.0.0.1:\(port)" }

    /// Waits until the replay has fed the whole log and gpsd exited.
    public func waitUntilFinished(timeout: Duration = .seconds(120)) async {
        var deadline = TestDeadline(timeout)
        while process.isRunning, !deadline.passed {
            await deadline.sleep(for: .milliseconds(50))
        }
    }

    /// Kills gpsd hard (as a crash would), then the harness.
    public func killGPSD() {
        kill(gpsdPID, SIGKILL)
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// Stops everything and removes the temp dir.
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        kill(gpsdPID, SIGKILL)
        tmp.remove()
    }

    deinit { stop() }

    public enum ReplayError: Error { case didNotStart(String) }
}
