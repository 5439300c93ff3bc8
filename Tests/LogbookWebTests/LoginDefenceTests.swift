// SPDX-License-Identifier: MIT
import Foundation
import LogbookConfig
import LogbookCore
import LogbookTestSupport
import Synchronization
import Testing

@testable import LogbookWeb

/// Issue 28, items 3 and 4: wrong guesses from many addresses cannot keep the owner out,
/// guessing stays bounded overall, weak passwords are refused at start, and a logout
/// outlives a restart.
@Suite(.serialized) struct LoginDefenceTests {
    static let password = "kq8d2n5vf9zh"

    /// 40 loopback addresses guess wrong, as fast as they are let, while the owner logs in
    /// from 127.0.0.1 again and again: every one of the owner's logins succeeds.
    @Test(.timeLimit(.minutes(3)))
    func distributedWrongGuessesDoNotKeepTheOwnerOut() async throws {
        let dir = try TemporaryDirectory("login")
        defer { dir.remove() }
        try await WebHarness.run(WebHarness.configuration(dir, password: Self.password)) { _, client in
            let stop = Shared(false)
            let guesses = Shared((wrong: 0, limited: 0, other: 0))
            let json = ["Content-Type": "application/json"]
            // Threads of their own: a guess waiting for its turn must not hold a Dispatch worker.
            var attackers: [Thread] = []
            for i in 2...41 {
                let attacker = HTTPTestClient(port: client.port, source: "127.0.0.\(i)")
                for stream in 0..<3 {  // three guesses at a time from each address
                    let thread = Thread {
                        var n = 0
                        while !stop.value {
                            n += 1
                            let body = #"{"password":"guess-\#(i)-\#(stream)-\#(n)"}"#
                            let status = (try? attacker.requestBlocking("POST", "/api/session", headers: json, body: body))?.status ?? 0
                            guesses.withLock { g in
                                switch status {
                                case 401: g.wrong += 1
                                case 429: g.limited += 1
                                default: g.other += 1
                                }
                            }
                            if status == 429 { usleep(200_000) }
                        }
                    }
                    thread.start()
                    attackers.append(thread)
                }
            }
            // Let every address guess for a while, then log in as the owner while it goes on.
            try await Task.sleep(for: .seconds(3))
            let owner = HTTPTestClient(port: client.port, source: "127.0.0.1")
            var slowest = 0.0
            for _ in 0..<10 {
                let start = ContinuousClock.now
                let r = try await owner.request("POST", "/api/session", headers: json, body: #"{"password":"\#(Self.password)"}"#)
                slowest = max(slowest, (ContinuousClock.now - start).seconds)
                #expect(r.status == 200 && r.sessionCookie != nil, "the owner was refused: \(r)")
                try await Task.sleep(for: .milliseconds(500))
            }
            stop.value = true
            while attackers.contains(where: { $0.isExecuting }) { try await Task.sleep(for: .milliseconds(50)) }
            let g = guesses.value
            print(String(format: "web-login: owner signed in 10 of 10 times (slowest %.0f ms) while 40 addresses guessed: %d wrong, %d refused (429)",
                         slowest * 1000, g.wrong, g.limited))
            #expect(g.other == 0)
            #expect(g.wrong > 40 && g.limited > 0, "the attack did not run: \(g)")
            // Per address: 5 in a burst, then one per 12 s (the run lasts about 9 s).
            #expect(g.wrong <= 40 * 6, "\(g.wrong) wrong guesses were checked")
        }
    }

    /// However many addresses take part, at most `checksPerSecond` passwords are checked a
    /// second, and an address without wrong guesses goes before those that have them.
    @Test(.timeLimit(.minutes(2)))
    func checksAreBoundedOverallAndTheCleanAddressGoesFirst() async throws {
        var policy = LoginLimiter.Policy()
        policy.checksPerSecond = 20
        let limiter = LoginLimiter(policy: policy)
        // 300 addresses that have guessed wrong before (a botnet's second round).
        for i in 0..<300 { limiter.failed("10.0.\(i / 250).\(i % 250)") }
        let admitted = Shared<[Double]>([])
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<300 {
                group.addTask {
                    let address = "10.0.\(i / 250).\(i % 250)"
                    if await limiter.admit(address) == nil {
                        admitted.withLock { $0.append((ContinuousClock.now - start).seconds) }
                        limiter.failed(address)
                    }
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            let ownerStart = ContinuousClock.now
            #expect(await limiter.admit("192.0.2.1") == nil)
            let ownerWait = (ContinuousClock.now - ownerStart).seconds
            limiter.succeeded("192.0.2.1")
            try await group.waitForAll()
            let times = admitted.withLock { $0 }.sorted()
            // Over the queue's span, checks came at no more than the rate (plus one slot).
            let span = (times.last ?? 0) - (times.first ?? 0)
            print(String(format: "web-login: %d queued guesses from 300 addresses checked over %.1f s (%.1f/s, limit 20/s); the clean address waited %.0f ms",
                         times.count, span, Double(times.count) / max(span, 0.001), ownerWait * 1000))
            #expect(Double(times.count - 1) <= span * 20 + 1)
            #expect(ownerWait < 0.5, "the clean address waited behind the guessing ones")
        }
    }

    @Test func aWeakPasswordIsAConfigError() throws {
        let dir = try TemporaryDirectory("weak")
        defer { dir.remove() }
        for (password, weak) in [("hunter22", true), ("aaaaaaaaaaaaaaaaaaaa", true), ("Password1234", true), (Self.password, false)] {
            let path = dir.file("pw")
            try (password + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o600)
            try "[web]\nlisten = \"0.0.0.0:8080\"\npassword_file = \"\(path)\"\n".write(toFile: dir.file("c.toml"), atomically: true, encoding: .utf8)
            do {
                _ = try WebConfiguration.load(file: dir.file("c.toml"), environment: [:])
                #expect(!weak, "\(password) was accepted")
            } catch {
                #expect(weak, "\(password): \(error)")
                #expect(error.key == "web.password_file" && "\(error)".contains("too weak"), "\(error)")
            }
        }
        #expect(PasswordStrength.bits("correct horse battery staple") > 100)
        #expect(PasswordStrength.bits("abcdefghijklmnopqrstuvwxyz") < 10)
    }

    /// Logout, restart, the cookie refused; another session unaffected.
    @Test func aLogoutOutlivesARestart() async throws {
        let dir = try TemporaryDirectory("logout")
        defer { dir.remove() }
        let config = WebHarness.configuration(dir, password: Self.password)
        let json = ["Content-Type": "application/json"]
        var (ended, kept) = ("", "")
        try await WebHarness.run(config) { _, client in
            for n in 0..<2 {
                let login = try await client.request("POST", "/api/session", headers: json, body: #"{"password":"\#(Self.password)"}"#)
                let cookie = try #require(login.sessionCookie)
                if n == 0 { ended = cookie } else { kept = cookie }
            }
            let me = try await client.request("GET", "/api/session", headers: ["Cookie": "logbook_session=\(ended)"])
            let csrf = try #require(me.json?["csrf_token"]?.stringValue)
            let out = try await client.request("DELETE", "/api/session", headers: ["Cookie": "logbook_session=\(ended)", "X-CSRF-Token": csrf])
            #expect(out.status == 200)
            #expect(try await client.request("GET", "/api/trips", headers: ["Cookie": "logbook_session=\(ended)"]).status == 401)
        }
        #expect(fileMode(config.sessionsPath) == 0o600)
        try await WebHarness.run(config) { _, client in
            let refused = try await client.request("GET", "/api/trips", headers: ["Cookie": "logbook_session=\(ended)"])
            #expect(refused.status == 401, "the ended session came back after a restart: \(refused)")
            let session = try await client.request("GET", "/api/session", headers: ["Cookie": "logbook_session=\(kept)"])
            #expect(session.json?["authenticated"] == .bool(true), "\(session)")
        }
    }

    /// The list is bounded: one logout more than it holds ends every session instead.
    @Test func theRevocationListIsBounded() throws {
        let dir = try TemporaryDirectory("bound")
        defer { dir.remove() }
        let store = RevokedSessions(path: dir.file("sessions.json"), limit: 50)
        let authority = try SessionAuthority(password: Self.password, lifetime: 1000, store: store)
        let bystander = authority.issue(authenticated: true, now: 10)
        for _ in 0..<store.limit {
            try authority.revoke(authority.issue(authenticated: true, now: 10).session, now: 20)
        }
        #expect(authority.revocations.revoked.count == store.limit)
        #expect(authority.session(fromCookie: bystander.cookie, now: 30) != nil)
        try authority.revoke(authority.issue(authenticated: true, now: 10).session, now: 20)
        #expect(authority.revocations.generation == 1 && authority.revocations.revoked.isEmpty)
        #expect(authority.session(fromCookie: bystander.cookie, now: 30) == nil, "a bump ends every session")
        let restarted = try SessionAuthority(password: Self.password, lifetime: 1000, store: store)
        #expect(restarted.session(fromCookie: bystander.cookie, now: 30) == nil)
        #expect(restarted.session(fromCookie: restarted.issue(authenticated: true, now: 10).cookie, now: 30) != nil)
        // A file that is not a sessions file: every session ends.
        try "garbage".write(toFile: store.path, atomically: true, encoding: .utf8)
        let fresh = authority.issue(authenticated: true, now: 10).cookie
        #expect(try SessionAuthority(password: Self.password, lifetime: 1000, store: store).session(fromCookie: fresh, now: 30) == nil)
    }

    func fileMode(_ path: String) -> mode_t? {
        var st = stat()
        return stat(path, &st) == 0 ? st.st_mode & 0o7777 : nil
    }
}

/// A value tasks share (a test's counters and flags).
final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    var value: Value {
        get { mutex.withLock { $0 } }
        set { mutex.withLock { $0 = newValue } }
    }
    func withLock<R>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}
