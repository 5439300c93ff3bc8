// SPDX-License-Identifier: MIT
import Foundation

/// A private dbus-daemon with python-dbusmock templates on it: the "system bus" a monitor
/// under test connects to by address. Everything it starts is stopped by PID in ``stop()``.
public final class FakeSystemBus: @unchecked Sendable {
    // @unchecked: owned and used by one test at a time; nothing is shared between threads.
    public enum SetupError: Error { case timeout(String), command(String) }

    /// The D-Bus address (`unix:path=…`).
    public let address: String
    private let dir: TemporaryDirectory
    private var processes: [Process] = []
    private var mocks: [String: Process] = [:]

    /// Why the fakes are unavailable (nil: available); computed once per test process.
    public static let unavailable: String? = {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestPaths.script("fakes/ensure-dbusmock.sh"))
        do { try p.run() } catch { return "cannot run ensure-dbusmock.sh: \(error)" }
        p.waitUntilExit()
        return p.terminationStatus == 0
            ? nil
            : "dbus-daemon/python3-dbusmock missing and not installable (ensure-dbusmock.sh rc \(p.terminationStatus))"
    }()

    private let templates: [String]

    /// Starts the bus daemon and one dbusmock process per template (`bluez5`, `logind`).
    public init(templates: [String]) throws {
        dir = try TemporaryDirectory("sdbus")
        address = "unix:path=\(dir.file("bus"))"
        self.templates = templates
        do {
            try launchAll()
        } catch {
            stop()
            throw error
        }
    }

    /// Kills the bus daemon and the mocks (clients see the connection break) and starts
    /// fresh ones at the same address; the mocks start empty.
    public func restart() throws {
        killAll()
        try? FileManager.default.removeItem(atPath: dir.file("bus"))
        try launchAll()
    }

    private func launchAll() throws {
        try launch("/usr/bin/dbus-daemon", ["--session", "--nofork", "--address=\(address)"], log: "dbus-daemon")
        try waitFor("bus socket") { FileManager.default.fileExists(atPath: self.dir.file("bus")) }
        for (template, name) in templates.map({ ($0, Self.busName($0)) }) {
            try launch(
                "/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", template], log: template,
                environment: ["DBUS_SYSTEM_BUS_ADDRESS": address])
            mocks[template] = processes.last
            try waitFor("\(name) on the bus") {
                let reply = try? self.busctl([
                    "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                    "NameHasOwner", "s", name,
                ])
                return reply == "b true"
            }
        }
    }

    deinit { stop() }

    /// Kills everything started here (by PID) and removes the directory.
    ///
    /// SIGKILL, not SIGTERM: children spawned from a libdispatch worker thread inherit its
    /// signal mask, in which SIGTERM is blocked, so dbus-daemon and python would ignore it.
    public func stop() {
        killAll()
        dir.remove()
    }

    private func killAll() {
        for p in processes.reversed() where p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
        }
        processes = []
        mocks = [:]
    }

    /// Kills one template's mock (by PID): its bus name vanishes, as when BlueZ stops.
    public func killMock(_ template: String) {
        guard let p = mocks.removeValue(forKey: template), p.isRunning else { return }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
    }

    /// Runs `busctl --address=… ARGS` and returns its trimmed stdout; throws on failure.
    @discardableResult
    public func busctl(_ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/busctl")
        p.arguments = ["--address=\(address)"] + args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard p.terminationStatus == 0 else { throw SetupError.command("busctl \(args.joined(separator: " ")): \(text)") }
        return text
    }

    /// Calls a method on the bluez5 mock's `org.bluez.Mock` interface.
    public func bluez(_ method: String, _ signature: String, _ args: String...) throws {
        try busctl(["call", "org.bluez", "/", "org.bluez.Mock", method, signature] + args)
    }

    /// Emits a logind `Manager` signal carrying one boolean.
    public func emitLogind(_ member: String, _ value: Bool) throws {
        try busctl([
            "call", "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.DBus.Mock", "EmitSignal",
            "sssav", "org.freedesktop.login1.Manager", member, "b", "1", "b", value ? "true" : "false",
        ])
    }

    /// The number of inhibitor locks the logind mock holds (it drops one when its fd closes).
    public func logindInhibitorCount() throws -> Int {
        let reply = try busctl([
            "call", "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager",
            "ListInhibitors",
        ])
        // e.g. `a(ssssuu) 1 "shutdown:sleep" "logbookd" …`
        let parts = reply.split(separator: " ")
        guard parts.count >= 2, let n = Int(parts[1]) else { throw SetupError.command("ListInhibitors: \(reply)") }
        return n
    }

    private static func busName(_ template: String) -> String {
        template == "logind" ? "org.freedesktop.login1" : "org.bluez"
    }

    private func launch(_ path: String, _ args: [String], log: String, environment: [String: String] = [:]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let logURL = URL(fileURLWithPath: dir.file("\(log).log"))
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let handle = try FileHandle(forWritingTo: logURL)
        p.standardOutput = handle
        p.standardError = handle
        try p.run()
        processes.append(p)
    }

    private func waitFor(_ what: String, timeout: Duration = .seconds(10), _ ok: () -> Bool) throws {
        let deadline = ContinuousClock.now + timeout
        while !ok() {
            guard ContinuousClock.now < deadline else { throw SetupError.timeout(what) }
            usleep(20_000)
        }
    }
}
