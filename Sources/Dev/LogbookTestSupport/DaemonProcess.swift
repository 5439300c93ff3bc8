// SPDX-License-Identifier: MIT
public import Foundation

/// The built `logbookd` run as a child process, as systemd would run it.
public final class DaemonProcess: @unchecked Sendable {
    // @unchecked: owned by one test; output is appended under `lock` by the pipe handler.
    public let process = Process()
    private let lock = NSLock()
    private var output = Data()

    /// Starts `logbookd` with `arguments` and extra environment variables.
    public init(arguments: [String], environment: [String: String] = [:], executable: String = TestPaths.product("logbookd")) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NOTIFY_SOCKET")
        env.removeValue(forKey: "JOURNAL_STREAM")
        env.removeValue(forKey: "WATCHDOG_USEC")
        // The recorded drives are dated years ahead (gpsd's 1024-week rule): judged against a
        // synchronised system clock every fix would be refused ([trip] trust_system_clock).
        env["LOGBOOKD_TRIP_TRUST_SYSTEM_CLOCK"] = env["LOGBOOKD_TRIP_TRUST_SYSTEM_CLOCK"] ?? "false"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { [weak self] h in
            let d = h.availableData
            guard let self, !d.isEmpty else { return }
            self.lock.lock()
            self.output.append(d)
            self.lock.unlock()
        }
        try process.run()
    }

    public var pid: Int32 { process.processIdentifier }

    /// Everything the daemon wrote to stdout and stderr so far.
    public var log: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: output, as: UTF8.self)
    }

    /// Sends `signal` and waits for the exit; returns (exit status, seconds it took) or nil on timeout.
    /// Waited for on a thread of its own, so the seconds are the exit's and not how long the
    /// test's task waited for the cooperative pool (a loaded web pass measured 6 s so for an
    /// exit that takes 35 ms).
    public func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(10)) async -> (Int32, Double)? {
        let seconds = try? await onOwnThread("stop \(pid)") { [self] () -> Double? in
            let start = ContinuousClock.now
            kill(pid, signal)
            while process.isRunning, ContinuousClock.now - start < timeout { usleep(1_000) }
            return process.isRunning ? nil : (ContinuousClock.now - start).seconds
        }
        guard let seconds = seconds ?? nil else {
            kill(pid, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return (process.terminationStatus, seconds)
    }

    /// Waits for the process to exit by itself; nil on timeout (the process is then killed).
    public func waitForExit(timeout: Duration) async -> Int32? {
        var deadline = TestDeadline(timeout)
        while process.isRunning, !deadline.passed {
            await deadline.sleep(for: .milliseconds(10))
        }
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(pid, SIGKILL) }
    }
}

extension Duration {
    /// The duration in seconds.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// Reads and parses a JSON file; nil if missing or invalid.
public func readJSONFile(_ path: String) -> [String: Any]? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
}
