// SPDX-License-Identifier: MIT
import Synchronization
import Testing

@testable import LogbookWeb

/// Session cookies, CSRF tokens, password checks and the login limiter.
@Suite struct AuthTests {
    @Test func cookiesAreSignedAndExpire() throws {
        let authority = try SessionAuthority(password: "correct horse", lifetime: 100)
        let (cookie, session) = authority.issue(authenticated: true, now: 1000)
        let back = try #require(authority.session(fromCookie: cookie, now: 1050))
        #expect(back == session && back.authenticated)
        #expect(authority.session(fromCookie: cookie, now: 1101) == nil, "expired")
        // Any change to the cookie breaks the signature: the auth flag, the expiry, the nonce.
        let parts = cookie.split(separator: ".").map(String.init)
        var forged = parts
        forged[1] = String(Int(parts[1])! + 1000)
        #expect(authority.session(fromCookie: forged.joined(separator: "."), now: 1050) == nil)
        let anonymous = authority.issue(authenticated: false, now: 1000).cookie.split(separator: ".").map(String.init)
        var promoted = anonymous
        promoted[2] = "1"
        #expect(authority.session(fromCookie: promoted.joined(separator: "."), now: 1050) == nil)
        #expect(authority.session(fromCookie: "garbage", now: 1050) == nil)
        #expect(authority.session(fromCookie: "", now: 1050) == nil)
        // Another password, another key: old cookies end when the password changes.
        #expect(try SessionAuthority(password: "another one", lifetime: 100).session(fromCookie: cookie, now: 1050) == nil)
        // The same password after a restart keeps the phone logged in.
        #expect(try SessionAuthority(password: "correct horse", lifetime: 100).session(fromCookie: cookie, now: 1050) != nil)
    }

    @Test func logoutRevokes() throws {
        let authority = try SessionAuthority(password: "correct horse", lifetime: 100)
        let (cookie, session) = authority.issue(authenticated: true)
        #expect(authority.session(fromCookie: cookie) != nil)
        try authority.revoke(session)
        #expect(authority.session(fromCookie: cookie) == nil)
    }

    @Test func csrfTokensBelongToTheirSession() throws {
        let authority = try SessionAuthority(password: nil, lifetime: 100)
        let a = authority.issue(authenticated: false).session
        let b = authority.issue(authenticated: false).session
        #expect(authority.checkCSRF(a.csrfToken, for: a))
        #expect(!authority.checkCSRF(b.csrfToken, for: a))
        #expect(!authority.checkCSRF(nil, for: a))
        #expect(!authority.checkCSRF("", for: a))
    }

    @Test func passwords() throws {
        let authority = try SessionAuthority(password: "correct horse", lifetime: 100)
        #expect(authority.checkPassword("correct horse"))
        #expect(!authority.checkPassword("correct hors"))
        #expect(!authority.checkPassword(""))
        #expect(try !SessionAuthority(password: nil, lifetime: 100).checkPassword(""))
    }

    @Test func theLimiterStopsGuessingAndForgivesSlowly() async {
        var policy = LoginLimiter.Policy()
        policy.perClientBurst = 3
        policy.perClientRefill = 10
        let clock = TestClock()
        let limiter = LoginLimiter(policy: policy, clock: clock.read)
        for i in 0..<3 {
            clock.set(Double(i))
            #expect(await limiter.admit("a") == nil)
            limiter.failed("a")
        }
        clock.set(3)
        let wait = await limiter.admit("a")
        #expect(wait != nil && wait! > 0 && wait! <= 10)
        #expect(await limiter.admit("b") == nil, "another client is not affected")
        limiter.succeeded("b")
        clock.set(13)
        #expect(await limiter.admit("a") == nil, "one attempt regained after 10 s")
        limiter.succeeded("a")
        clock.set(14)
        #expect(await limiter.admit("a") == nil, "a right password gives the attempt back")
    }

    @Test func anIPv6ClientCountsByItsSlash64() {
        #expect(ClientAddress.key("2001:db8:1:2::1") == ClientAddress.key("2001:db8:1:2:ffff::7"))
        #expect(ClientAddress.key("2001:db8:1:2::1") != ClientAddress.key("2001:db8:1:3::1"))
        #expect(ClientAddress.key("::ffff:192.0.2.7") == "192.0.2.7")
        #expect(ClientAddress.key("192.0.2.7") == "192.0.2.7")
    }

    @Test func redirectTargetsStayLocal() {
        #expect(WebApp.safeNext("/trips?x=1") == "/trips?x=1")
        #expect(WebApp.safeNext("//evil.example/") == "/")
        #expect(WebApp.safeNext("https://evil.example/") == "/")
        #expect(WebApp.safeNext("/\\evil") == "/")
        #expect(WebApp.safeNext(nil) == "/")
    }

    @Test func hostAndOriginChecks() {
        #expect(AuthMiddleware.hostName("127.0.0.1:8080") == "127.0.0.1")
        #expect(AuthMiddleware.hostName("[::1]:8080") == "::1")
        #expect(AuthMiddleware.hostName("localhost") == "localhost")
        #expect(AuthMiddleware.sameOrigin("http://127.0.0.1:8080", host: "127.0.0.1:8080"))
        #expect(!AuthMiddleware.sameOrigin("http://evil.example", host: "127.0.0.1:8080"))
    }
}

/// A settable monotonic clock for the limiter.
final class TestClock: Sendable {
    private let now = Mutex(0.0)
    func set(_ t: Double) { now.withLock { $0 = t } }
    var read: @Sendable () -> Double { { [self] in now.withLock { $0 } } }
}
