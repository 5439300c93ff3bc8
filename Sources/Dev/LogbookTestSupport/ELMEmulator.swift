// SPDX-License-Identifier: MIT
public import Foundation

/// The third-party `ELM327-emulator` (PyPI, installed into the test venv by
/// `scripts/python-venv.sh`; its licence forbids copying it into the project) running in
/// batch mode on a loopback TCP port or on a pty, with its console on a pipe for commands
/// (`scenario engineoff`, `delay 2`, Python statements that inject replies).
///
/// It ignores SIGTERM in batch mode, so ``kill()`` sends SIGKILL (to its own PID only).
public final class ELMEmulator: @unchecked Sendable {
    // @unchecked: owned by one test; the console pipe is written from that test only.
    public enum Transport: Sendable { case tcp, pty }

    public let process = Process()
    /// The TCP port (`.tcp`) or 0.
    public let port: Int
    /// The pty's path (`.pty`) or nil.
    public private(set) var device: String?
    private let console = Pipe()
    private let dir: TemporaryDirectory
    private var outputOffset = 0

    /// Starts the emulator and returns once it serves.
    ///
    /// - Parameters:
    ///   - port: a fixed port (to restart on the same one), or nil for a free one.
    public init(scenario: String = "car", transport: Transport, port: Int? = nil) throws {
        dir = try TemporaryDirectory("elm")
        let elm = try Self.executable()
        var args = ["-s", scenario, "-b", dir.file("out")]
        var chosen = 0
        if transport == .tcp {
            chosen = try port ?? Self.freePort()
            args += ["-n", String(chosen)]
        }
        self.port = chosen
        process.executableURL = URL(fileURLWithPath: elm)
        process.arguments = args
        process.currentDirectoryURL = URL(fileURLWithPath: dir.path)  // its elm.log goes there
        process.standardInput = console
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        guard waitForOutput("batch mode STARTED", timeout: 30) else { throw Failure.didNotStart(output) }
        if transport == .pty {
            device = output.split(separator: "\n").first.map(String.init)
            guard let device, device.hasPrefix("/dev/") else { throw Failure.didNotStart(output) }
        } else {
            guard Self.waitUntilListening(chosen, timeout: 30) else { throw Failure.didNotStart(output) }
        }
    }

    /// `127.0.0.1:PORT`.
    public var address: String { "127.0.0.1:\(port)" }

    /// Everything the emulator wrote to its batch output file.
    public var output: String { (try? String(contentsOfFile: dir.file("out"), encoding: .utf8)) ?? "" }

    /// Sends one console command (a line on its stdin).
    public func send(_ command: String) {
        console.fileHandleForWriting.write(Data((command + "\n").utf8))
    }

    /// Sends a console command and waits until the output shows `confirmation` after what was there.
    @discardableResult
    public func send(_ command: String, confirmedBy confirmation: String, timeout: Double = 10) -> Bool {
        let before = output.utf8.count
        send(command)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = output
            if text.utf8.count > before, String(decoding: text.utf8.dropFirst(before), as: UTF8.self).contains(confirmation) { return true }
            usleep(20_000)
        }
        return false
    }

    /// Runs a Python statement in the emulator's console (it executes what is not a command:
    /// `emulator.answer['RPM'] = …` injects a reply) and waits until it has run: a marker
    /// printed after it shows up in the output. Returns false if it did not in time.
    @discardableResult
    public func run(_ statement: String, timeout: Double = 10) -> Bool {
        markers += 1
        let marker = "lb-marker-\(markers)"
        send(statement)
        return send("print('\(marker)')", confirmedBy: marker, timeout: timeout)
    }

    private var markers = 0

    /// Waits until the output contains `text`.
    public func waitForOutput(_ text: String, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if output.contains(text) { return true }
            if !process.isRunning { return false }
            usleep(20_000)
        }
        return false
    }

    /// Kills it with SIGKILL (it ignores SIGTERM in batch mode) and waits for it.
    public func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        kill()
        dir.remove()
    }

    public enum Failure: Error { case didNotStart(String), noVenv(String) }

    /// `.venv-test/bin/elm`, after `scripts/python-venv.sh` made sure the venv is current.
    static func executable() throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [TestPaths.script("python-venv.sh")]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let python = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let elm = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("elm").path
        guard p.terminationStatus == 0, FileManager.default.isExecutableFile(atPath: elm) else { throw Failure.noVenv(text) }
        return elm
    }

    /// A loopback port nobody listens on right now.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard ok else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    /// Whether something accepts connections on `port` within `timeout` s.
    static func waitUntilListening(_ port: Int, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            addr.sin_port = UInt16(port).bigEndian
            let rc = withUnsafePointer(to: &addr) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(fd)
            if rc == 0 { return true }
            usleep(50_000)
        }
        return false
    }
}
