// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Synchronization
import Testing

/// Issue 28, item 2: 2,000 connections that send a request head a byte at a time (slowloris,
/// from 20 loopback addresses, re-opened whenever the server closes one) against the built
/// `logbook-web` with the file limit its systemd unit sets, while a client on 127.0.0.1
/// polls `/api/live` (a real `logbookd` behind it): every poll is answered within 1 s.
@Suite(.serialized) struct SlowlorisTests {
    static let connections = 2000
    static let addresses = 20
    static let seconds = 25.0

    /// `LimitNOFILE=` of `systemd/logbook-web.service` (systemd's default soft limit, 1024,
    /// when the unit sets none).
    static func unitFileLimit() throws -> Int {
        let unit = try String(contentsOfFile: TestPaths.packageRoot.appendingPathComponent("systemd/logbook-web.service").path, encoding: .utf8)
        for line in unit.split(separator: "\n") where line.hasPrefix("LimitNOFILE=") {
            let value = line.dropFirst("LimitNOFILE=".count).split(separator: ":").first ?? ""
            if let n = Int(value) { return n }
        }
        return 1024
    }

    @Test(.timeLimit(.minutes(3)))
    func theLivePageAnswersDuringASlowloris() async throws {
        // This process holds the attack's sockets.
        var own = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &own)
        own.rlim_cur = min(own.rlim_max, rlim_t(Self.connections + 1024))
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &own)
        try #require(Int(own.rlim_cur) > Self.connections + 100, "the test needs \(Self.connections + 100) descriptors")

        let dir = try TemporaryDirectory("slow")
        defer { dir.remove() }
        let daemon = try DaemonProcess(arguments: [
            "--gpsd", "127.0.0.1:1", "--state-dir", dir.file("state"), "--runtime-dir", dir.file("run"),
        ])
        defer { kill(daemon.pid, SIGTERM) }
        let limit = try Self.unitFileLimit()
        let port = try Self.freePort()
        let web = Process()
        web.executableURL = URL(fileURLWithPath: "/bin/sh")
        web.arguments = [
            "-c", "ulimit -n \(limit) && exec \"$0\" \"$@\"", TestPaths.product("logbook-web"),
            "--listen", "127.0.0.1:\(port)",
            "--state-dir", dir.file("state"), "--runtime-dir", dir.file("run"),
        ]
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "LOGBOOKD_CONFIG")
        env.removeValue(forKey: "NOTIFY_SOCKET")
        web.environment = env
        web.standardOutput = FileHandle.nullDevice
        web.standardError = FileHandle.nullDevice
        try web.run()
        defer {
            kill(web.processIdentifier, SIGKILL)
            web.waitUntilExit()
        }
        let client = HTTPTestClient(port: port, source: "127.0.0.1")
        let up = await eventually(.seconds(20)) { (try? await client.request("GET", "/api/live"))?.status == 200 }
        try #require(up, "logbook-web with logbookd did not come up")

        let attack = Slowloris(port: port, connections: Self.connections, addresses: Self.addresses)
        attack.start()
        defer { attack.stop() }
        // The poller on a thread of its own too: its timing is not the Dispatch pool's.
        let result = Shared((polls: 0, slowest: 0.0, failures: [String](), times: [(Double, Double)]()))
        // Waits for the poller's end (an event), not by looking at a flag now and then.
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            Thread {
                let begin = ContinuousClock.now
                let end = ContinuousClock.now + .seconds(Self.seconds)
                while ContinuousClock.now < end {
                    let start = ContinuousClock.now
                    let reply = try? client.requestBlocking("GET", "/api/live", timeout: 1.5)
                    let took = (ContinuousClock.now - start).seconds
                    result.withLock { r in
                        r.polls += 1
                        r.slowest = max(r.slowest, took)
                        r.times.append(((start - begin).seconds, took))
                        if reply?.status != 200 || took >= 1 {
                            r.failures.append(String(format: "%.2f s: %@", took, reply.map { "\($0.status)" } ?? "no answer"))
                        }
                    }
                    usleep(100_000)  // the poll interval
                }
                finished.resume()
            }.start()
        }
        let (polls, slowest, failures) = result.withLock { ($0.polls, $0.slowest, $0.failures) }
        let slow = result.value.times.sorted { $0.1 > $1.1 }.prefix(8).map { String(format: "%.1fs:%.0fms", $0.0, $0.1 * 1000) }
        print("web-slowloris: slowest polls (at, took): \(slow.joined(separator: " "))")
        let (held, reopened) = attack.counts
        print(String(format: "web-slowloris: %d half-open connections from %d addresses (%d re-opened after the server closed them), %d polls of /api/live, slowest %.0f ms, LimitNOFILE=%d",
                     held, Self.addresses, reopened, polls, slowest * 1000, limit))
        #expect(failures.isEmpty, "\(failures.count) of \(polls) polls late or unanswered: \(failures.prefix(5))")
        #expect(held >= Self.connections * 9 / 10, "the attack held only \(held) connections")
        #expect(reopened > 0, "no stalled connection was ever closed by the server")
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// The attacker: a thread of its own keeps `connections` sockets each sending a request head
/// one byte a second, never finishing it; a socket the server closes is opened again. It opens
/// at most ``openRate`` connections a second (all 2,000 within 2 s): a slowloris holds sockets
/// cheaply, it does not flood the accept queue (unpaced, the 2,000 connects of the first second
/// delayed one poll to 1.1–1.2 s in a debug build on a loaded 2-core machine).
final class Slowloris: Sendable {
    let port: Int
    let connections: Int
    let addresses: Int
    static let openRate = 1000
    private let stopped = Atomic(false)
    private let state = Mutex((held: 0, reopened: 0))

    init(port: Int, connections: Int, addresses: Int) {
        self.port = port
        self.connections = connections
        self.addresses = addresses
    }

    /// The most connections open at once so far, and how many were re-opened.
    var counts: (Int, Int) { state.withLock { ($0.held, $0.reopened) } }

    func start() {
        let thread = Thread { [self] in run() }
        thread.start()
    }

    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Waits until one more connection fits ``openRate`` (in slices of 100 ms).
    private func pace(_ window: inout (start: ContinuousClock.Instant, opened: Int)) {
        if ContinuousClock.now - window.start >= .milliseconds(100) { window = (ContinuousClock.now, 0) }
        if window.opened >= Self.openRate / 10 {
            let left = window.start + .milliseconds(100) - ContinuousClock.now
            if left > .zero { usleep(UInt32(left.seconds * 1e6)) }
            window = (ContinuousClock.now, 0)
        }
        window.opened += 1
    }

    private func open(_ i: Int, _ window: inout (start: ContinuousClock.Instant, opened: Int)) -> Int32 {
        pace(&window)
        guard let fd = try? HTTPTestClient.connect("127.0.0.1", port, from: "127.0.0.\(2 + i % addresses)") else { return -1 }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let head = Array("GET /api/live HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)
        _ = head.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return fd
    }

    private func run() {
        var fds = [Int32](repeating: -1, count: connections)
        var window = (start: ContinuousClock.now, opened: 0)
        defer { for fd in fds where fd >= 0 { close(fd) } }
        while !stopped.load(ordering: .relaxed) {
            var open = 0
            for i in fds.indices {
                if stopped.load(ordering: .relaxed) { return }
                if fds[i] < 0 {
                    fds[i] = self.open(i, &window)
                } else {
                    // One more byte of a header that never ends; a closed socket is reopened.
                    var byte: UInt8 = UInt8(ascii: "x")
                    var probe: UInt8 = 0
                    let gone = recv(fds[i], &probe, 1, Int32(MSG_DONTWAIT)) == 0
                    if gone || send(fds[i], &byte, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) < 0 && errno != EAGAIN {
                        close(fds[i])
                        fds[i] = self.open(i, &window)
                        state.withLock { $0.reopened += 1 }
                    }
                }
                if fds[i] >= 0 { open += 1 }
            }
            state.withLock { $0.held = max($0.held, open) }
            usleep(1_000_000)
        }
    }
}
