// SPDX-License-Identifier: MIT
import Foundation
import LogbookPOSIX
import LogbookTestSupport
import Testing

/// A free loopback TCP port (bound, read, released).
func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
    _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
    return Int(UInt16(bigEndian: addr.sin_port))
}

/// Whether something accepts TCP connections on the loopback `port`.
func listening(_ port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = in_port_t(UInt16(port).bigEndian)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    } == 0
}

/// A child process started with posix_spawn: default signal dispositions and an empty
/// signal mask (tests run on libdispatch threads, which block signals, and Foundation's
/// Process hands that mask on: a broker would then ignore SIGTERM), output to a file.
final class Child: @unchecked Sendable {
    // @unchecked: owned by one test; `status` is written once by wait().
    let pid: pid_t
    let output: String
    private var status: Int32?

    init(_ executable: String, _ arguments: [String], output: String, environment: [String: String] = [:]) throws {
        self.output = output
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var env = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "JOURNAL_STREAM"] { env.removeValue(forKey: key) }
        for (k, v) in environment { env[k] = v }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attr, argv, envp)
        guard rc == 0 else { throw ServerError.failed("spawn \(executable): \(SystemError.text(rc))") }
        self.pid = pid
    }

    /// Whether it still runs (reaps it when it has exited).
    var isRunning: Bool {
        if status != nil { return false }
        var st: Int32 = 0
        let r = waitpid(pid, &st, WNOHANG)
        if r == pid { status = Self.code(st) }
        return r == 0
    }

    /// Blocks until it exits; its exit code (128 + signal when killed).
    @discardableResult
    func wait() -> Int32 {
        if let status { return status }
        var st: Int32 = 0
        while waitpid(pid, &st, 0) < 0 && errno == EINTR {}
        status = Self.code(st)
        return status ?? -1
    }

    /// Sends `signal` and waits up to `timeout` seconds (then SIGKILL); the exit code.
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM, timeout: Double = 10) -> Int32 {
        guard isRunning else { return status ?? -1 }
        kill(pid, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning && Date() < deadline { usleep(10_000) }
        if isRunning { kill(pid, SIGKILL) }
        return wait()
    }

    var log: String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }

    static func code(_ st: Int32) -> Int32 { (st & 0x7f) == 0 ? (st >> 8) & 0xff : 128 + (st & 0x7f) }

    deinit { if status == nil { kill(pid, SIGKILL); _ = wait() } }
}

/// Runs a command to completion; returns (status, stdout + stderr). Output goes to a file:
/// a daemon the command starts (pg_ctl's server) would keep a pipe open forever.
@discardableResult
func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String) {
    let out = NSTemporaryDirectory() + "run-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: out) }
    let child = try Child(executable, arguments, output: out, environment: environment)
    let code = child.wait()
    return (code, child.log)
}

/// A private mosquitto broker on a loopback port: plain, or TLS with a generated CA and a
/// password file. Persistence on, so queued messages survive a restart (as a real broker's).
final class Mosquitto: @unchecked Sendable {
    // @unchecked: owned by one test.
    let directory: String
    let port: Int
    private(set) var process: Child?
    private(set) var restarts = 0

    struct TLS {
        var ca: String
        var cert: String
        var key: String
    }

    init(directory: String, tls: TLS? = nil, users: [(String, String)] = []) throws {
        self.directory = directory
        port = freePort()
        var conf = "per_listener_settings false\npersistence true\npersistence_location \(directory)/\n"
        if getuid() == 0 { conf += "user root\n" }  // as root mosquitto would switch to its own user
        conf += "autosave_interval 1\nlog_dest file \(directory)/mosquitto.log\nlistener \(port) 127.0.0.1\n"
        if let tls { conf += "cafile \(tls.ca)\ncertfile \(tls.cert)\nkeyfile \(tls.key)\n" }
        if users.isEmpty {
            conf += "allow_anonymous true\n"
        } else {
            let pw = directory + "/passwd"
            for (i, (user, password)) in users.enumerated() {
                try run("/usr/bin/mosquitto_passwd", (i == 0 ? ["-c"] : []) + ["-b", pw, user, password])
            }
            conf += "allow_anonymous false\npassword_file \(pw)\n"
        }
        try conf.write(toFile: directory + "/mosquitto.conf", atomically: true, encoding: .utf8)
        try start()
    }

    func start() throws {
        process = try Child("/usr/sbin/mosquitto", ["-c", directory + "/mosquitto.conf"], output: directory + "/stdout.log")
        for _ in 0..<200 where !listening(port) { usleep(20_000) }
    }

    /// Stops the broker as an operator would (SIGTERM: it saves its persistence file).
    func stop() {
        process?.stop()
        process = nil
    }

    func restart() throws {
        stop()
        try start()
        restarts += 1
    }

    deinit { stop() }
}

/// `mosquitto_sub` recording every message as `<unix time> <topic> <payload>` lines, with a
/// persistent QoS 1 session so it misses nothing across broker restarts.
final class Subscriber: @unchecked Sendable {
    // @unchecked: owned by one test.
    let output: String
    private let process: Child

    init(port: Int, topics: [String], output: String, extra: [String] = []) throws {
        self.output = output
        process = try Child("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-c", "-i",
                                                      "collector-\(port)", "-F", "%U %t %p"] + topics.flatMap { ["-t", $0] } + extra,
                            output: output)
    }

    /// The messages so far: (receive time, topic, payload).
    var messages: [(Double, String, String)] {
        guard let text = try? String(contentsOfFile: output, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let t = Double(parts[0]) else { return nil }
            return (t, String(parts[1]), String(parts[2]))
        }
    }

    func stop() { process.stop() }
}

/// A throwaway PostgreSQL cluster (Debian's server binaries). `initdb` refuses root, so as
/// root the cluster runs as the `postgres` user in a directory it owns.
final class PostgresCluster: @unchecked Sendable {
    // @unchecked: owned by one test.
    let directory: String
    let port: Int
    private(set) var downs = 0
    let bin: String
    let asRoot = getuid() == 0

    init(directory: String) throws {
        self.directory = directory
        port = freePort()
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let v = versions.sorted().last else { throw ServerError.missing("no /usr/lib/postgresql/*/bin (apt-get install postgresql)") }
        bin = "/usr/lib/postgresql/\(v)/bin"
        // The server user must reach the directory: the test's temp dir (0700) is opened up.
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod((directory as NSString).deletingLastPathComponent, 0o755)
        chmod(directory, 0o755)
        if asRoot { try run("/usr/bin/chown", ["postgres", directory]) }
        let (status, out) = try asOwner(bin + "/initdb", ["-D", directory + "/data", "-A", "trust", "-U", "logbook", "--no-sync"])
        guard status == 0 else { throw ServerError.failed("initdb: \(out)") }
        try start()
        try psql("CREATE DATABASE fleet", database: "postgres")
    }

    /// `postgres://logbook@127.0.0.1:PORT/fleet`.
    var url: String { "postgres://logbook@127.0.0.1:\(port)/fleet" }

    func start() throws {
        let (status, out) = try asOwner(bin + "/pg_ctl", [
            "-D", directory + "/data", "-w", "-l", directory + "/log",
            "-o", "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50",
            "start",
        ])
        guard status == 0 else { throw ServerError.failed("pg_ctl start: \(out)") }
    }

    /// Stops the server (`-m fast`: sessions are cut, as in an outage).
    func stop() {
        _ = try? asOwner(bin + "/pg_ctl", ["-D", directory + "/data", "-m", "fast", "-w", "stop"])
        downs += 1
    }

    /// Runs SQL with psql; returns the unaligned, tuples-only output.
    @discardableResult
    func psql(_ sql: String, database: String = "fleet") throws -> String {
        let (status, out) = try run("/usr/bin/psql", [
            "-h", "127.0.0.1", "-p", String(port), "-U", "logbook", "-d", database, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1",
            "-c", sql,
        ])
        guard status == 0 else { throw ServerError.failed("psql: \(out)") }
        return out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func asOwner(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
        asRoot ? try run("/usr/sbin/runuser", ["-u", "postgres", "--", executable] + arguments) : try run(executable, arguments)
    }

    deinit { _ = try? asOwner(bin + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "stop"]) }
}

enum ServerError: Error { case missing(String), failed(String) }

/// A CA and a server certificate for 127.0.0.1, made with openssl for one test.
func makeTLS(in dir: String) throws -> Mosquitto.TLS {
    let ca = dir + "/ca.pem", caKey = dir + "/ca.key", key = dir + "/server.key", csr = dir + "/server.csr"
    let cert = dir + "/server.pem", ext = dir + "/san.ext"
    try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: ext, atomically: true, encoding: .utf8)
    for args in [
        ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", caKey, "-out", ca, "-days", "2", "-subj", "/CN=Logbook test CA"],
        ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr, "-subj", "/CN=127.0.0.1"],
        ["x509", "-req", "-in", csr, "-CA", ca, "-CAkey", caKey, "-CAcreateserial", "-out", cert, "-days", "2", "-extfile", ext],
    ] {
        let (status, out) = try run("/usr/bin/openssl", args)
        guard status == 0 else { throw ServerError.failed("openssl \(args[0]): \(out)") }
    }
    chmod(key, 0o644)
    return Mosquitto.TLS(ca: ca, cert: cert, key: key)
}
