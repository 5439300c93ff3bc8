// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookControl
import LogbookDaemon
import LogbookTestSupport
import Logging
import ServiceLifecycle
import Synchronization

/// A handler that records commands: `trip.start` succeeds, `trip.stop` fails with `no_trip`.
final class FakeHandler: ControlHandler {
    let state = Harness.document(seq: 41)
    /// When set, `trip.start` waits until the test opens it: a slow command without a timer.
    let gate: CommandGate?
    private let recorded = Mutex<[(String, JSONValue)]>([])

    init(gate: CommandGate? = nil) { self.gate = gate }

    var calls: [(String, JSONValue)] { recorded.withLock { $0 } }

    func currentState() -> JSONValue { state }

    func execute(_ command: String, _ request: JSONValue) async -> Result<JSONValue, ControlError> {
        recorded.withLock { $0.append((command, request)) }
        if command == "trip.start", let gate { await gate.wait() }
        if command == "trip.start" { return .success(.object([("trip", .object([("id", .string("t1"))]))])) }
        return .failure(ControlError(code: "no_trip", message: "no trip is being recorded"))
    }
}

/// A door a command waits at until the test opens it.
final class CommandGate: Sendable {
    private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { s -> Bool in
                if s.open { return true }
                s.waiting.append(c)
                return false
            }
            if resumeNow { c.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.open = true
            defer { s.waiting = [] }
            return s.waiting
        }
        waiting.forEach { $0.resume() }
    }
}

/// A running ``ControlSocketService`` in a ``ServiceGroup``.
struct Harness {
    let dir: TemporaryDirectory
    let path: String
    let handler: FakeHandler
    let updates: LiveUpdates
    let logger: Logger
    private let lines: CapturingLogHandler.Store
    private let group: ServiceGroup
    private let running: Task<(any Error)?, Never>
    private let ownsDirectory: Bool

    var log: [String] { lines.all }

    static func document(seq: Int, pad: String? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [("schema", .number(1)), ("seq", .number(Double(seq))), ("trip", .null)]
        if let pad { members.append(("pad", .string(pad))) }
        return .object(members)
    }

    static func start(
        limits: ControlSocketService.Limits = .init(), gate: CommandGate? = nil, group: String? = nil,
        path: String? = nil, dir: TemporaryDirectory? = nil, descriptor: Int32? = nil
    ) async throws -> Harness {
        try await Harness(limits: limits, gate: gate, groupName: group, path: path, dir: dir, descriptor: descriptor)
    }

    private init(
        limits: ControlSocketService.Limits, gate: CommandGate?, groupName: String?, path: String?, dir: TemporaryDirectory?,
        descriptor: Int32?
    ) async throws {
        ownsDirectory = dir == nil
        self.dir = try dir ?? TemporaryDirectory("lbs")
        self.path = path ?? self.dir.file("control.sock")
        let handler = FakeHandler(gate: gate)
        let updates = LiveUpdates()
        let (logger, lines) = CapturingLogHandler.logger("control-socket-test", level: .debug)
        self.handler = handler
        self.updates = updates
        self.lines = lines
        self.logger = logger
        var service =
            if let descriptor {
                ControlSocketService(listeningDescriptor: descriptor, handler: handler, updates: updates, logger: logger, limits: limits)
            } else {
                ControlSocketService(path: self.path, group: groupName, handler: handler, updates: updates, logger: logger, limits: limits)
            }
        // Ready once the server thread polls the listener, not when the file appears (a
        // stale file or an adopted fd exists before): on a loaded 2-core CI box that can take seconds.
        let listening = ListeningFlag()
        service.onListening = { listening.set() }
        let group = ServiceGroup(services: [service], logger: logger)
        self.group = group
        running = Task {
            do {
                try await group.run()
                return nil
            } catch {
                return error
            }
        }
        var deadline = TestDeadline(.seconds(30))
        while !listening.isSet, !deadline.passed {
            await deadline.sleep(for: .milliseconds(5))
        }
    }

    /// Connects, retrying while the socket is bound but not yet listening.
    func connect() async throws -> TestClient {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            do {
                return try TestClient(path: path)
            } catch where ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    /// Shuts the service down; returns the error it ended with, if any.
    func stop() async throws -> String? {
        await group.triggerGracefulShutdown()
        let error = await running.value
        if ownsDirectory { dir.remove() }
        return error.map { "\($0)" }
    }
}

/// Raw sockets the tests make themselves.
enum TestSocket {
    /// A Unix stream socket bound to `path`, optionally listening (as systemd would pass it).
    static func bound(_ path: String, listening: Bool) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un.at(path)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, rc == 0, !listening || listen(fd, 8) == 0 else { throw POSIXError(.EIO) }
        return fd
    }
}

extension sockaddr_un {
    static func at(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = b }
        }
        return address
    }
}

/// A non-blocking client whose waits sleep instead of blocking the test's thread (the
/// handler's tasks need the concurrency pool too).
final class TestClient {
    struct Timeout: Error {}
    struct Closed: Error {}

    let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `path`; throws ECONNREFUSED when it cannot.
    convenience init(path: String) throws {
        // The fd is closed here on failure, so the object (whose deinit closes it) only
        // exists once connected: closing twice could close another test's new fd.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un.at(path)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        self.init(fd: fd)
    }

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    func send(_ text: String) async throws { try await send(bytes: Array(text.utf8)) }

    func send(bytes: [UInt8]) async throws {
        var offset = 0
        let deadline = ContinuousClock.now + .seconds(30)
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                offset += n
            } else if errno == EAGAIN, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(1))
            } else {
                throw POSIXError(.EPIPE)
            }
        }
    }

    func closeWriting() { shutdown(fd, Int32(SHUT_WR)) }

    /// The next line parsed as JSON.
    func readJSON(timeout: Duration = .seconds(15)) async throws -> JSONValue {
        try JSONValue.parse(try await readLine(timeout: timeout))
    }

    /// The next line, without its newline.
    func readLine(timeout: Duration = .seconds(15)) async throws -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                defer { buffer.removeFirst(newline + 1) }
                return Array(buffer[..<newline])
            }
            switch receive() {
            case .some(0): throw Closed()
            case .some: continue
            case .none:
                guard ContinuousClock.now < deadline else { throw Timeout() }
                try await Task.sleep(for: .milliseconds(2))
            }
        }
    }

    /// Reads until the server closes the connection; the number of lines received, or nil
    /// if it stayed open past `timeout`.
    func drainUntilClosed(timeout: Duration) async throws -> Int? {
        let deadline = ContinuousClock.now + timeout
        var lines = buffer.filter { $0 == 10 }.count
        buffer = []
        while ContinuousClock.now < deadline {
            switch receive(counting: &lines) {
            case .some(0): return lines
            case .some: continue
            case .none: try await Task.sleep(for: .milliseconds(2))
            }
        }
        return nil
    }

    /// Bytes received (0 at EOF or on error), nil when none are waiting.
    private func receive() -> Int? {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = recv(fd, &chunk, chunk.count, 0)
        if n > 0 { buffer += chunk[0..<n] }
        return n < 0 && errno == EAGAIN ? nil : max(n, 0)
    }

    private func receive(counting lines: inout Int) -> Int? {
        let n = receive()
        lines += buffer.filter { $0 == 10 }.count
        buffer = []
        return n
    }
}

/// Runs the built `logbook` CLI; waits without blocking the concurrency pool.
func runLogbook(_ arguments: [String], whileRunning: () -> Void = {}) async throws -> (status: Int32, out: String, err: String) {
    let dir = try TemporaryDirectory("lbo")
    defer { dir.remove() }
    _ = FileManager.default.createFile(atPath: dir.file("out"), contents: nil)
    _ = FileManager.default.createFile(atPath: dir.file("err"), contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: TestPaths.product("logbook"))
    process.arguments = arguments
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("out")))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("err")))
    try process.run()
    var deadline = TestDeadline(.seconds(20))
    while process.isRunning, !deadline.passed {
        whileRunning()
        await deadline.sleep(for: .milliseconds(20))
    }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    let read = { (name: String) in (try? String(contentsOfFile: dir.file(name), encoding: .utf8)) ?? "" }
    return (process.terminationStatus, read("out"), read("err"))
}

/// Set by the service's `onListening` hook.
final class ListeningFlag: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
}
