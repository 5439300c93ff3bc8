// SPDX-License-Identifier: MIT
internal import Crypto
internal import Synchronization

/// A signed-in browser (or, without a password, any browser on this machine): what the
/// session cookie stands for.
package struct Session: Sendable, Hashable {
    /// Random, names the session; the CSRF token is derived from it.
    package var nonce: String
    /// Wall-clock seconds since 1970 after which the cookie is refused.
    package var expires: Double
    /// The token every write must carry (`X-CSRF-Token` header or `csrf` form field).
    package var csrfToken: String
    /// True when a password was checked to get it (false: loopback without a password).
    package var authenticated: Bool
}

/// Issues and checks session cookies and CSRF tokens, and checks the password.
///
/// Cookies are stateless and signed (HMAC-SHA256): `1.<expires>.<auth>.<nonce>.<mac>`. The
/// key is derived from the password (HKDF), so a login survives a restart of the Pi (which
/// may happen at every ignition) and changing the password ends every session. Without a
/// password the key is random per process: the cookie then only carries the CSRF token.
package final class SessionAuthority: Sendable {
    private let key: SymmetricKey
    private let passwordMAC: [UInt8]?
    package let lifetime: Double
    /// Nonces of sessions ended by logout, until they would have expired anyway.
    private let revoked = Mutex<[String: Double]>([:])

    /// The cookie's name.
    package static let cookieName = "logbook_session"

    package init(password: String?, lifetime: Double) {
        let key: SymmetricKey
        if let password {
            key = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: Array(password.utf8)), info: Array("logbook-web session v1".utf8),
                outputByteCount: 32)
        } else {
            key = SymmetricKey(size: .bits256)
        }
        self.key = key
        self.lifetime = lifetime
        self.passwordMAC = password.map { Array(HMAC<SHA256>.authenticationCode(for: Array($0.utf8), using: key)) }
    }

    /// True when `candidate` is the password (compared in constant time through MACs).
    package func checkPassword(_ candidate: String) -> Bool {
        guard let passwordMAC else { return false }
        let mac = HMAC<SHA256>.authenticationCode(for: Array(candidate.utf8), using: key)
        var difference: UInt8 = 0
        for (a, b) in zip(Array(mac), passwordMAC) { difference |= a ^ b }
        return difference == 0
    }

    /// A new session and its cookie value.
    package func issue(authenticated: Bool, now: Double = WallClock.now()) -> (cookie: String, session: Session) {
        let nonce = Self.hex((0..<16).map { _ in UInt8.random(in: 0...255) })
        let expires = (now + lifetime).rounded(.down)
        let body = "1.\(Int64(expires)).\(authenticated ? 1 : 0).\(nonce)"
        let session = Session(nonce: nonce, expires: expires, csrfToken: csrfToken(nonce), authenticated: authenticated)
        return (body + "." + mac(body), session)
    }

    /// The session a cookie value stands for, or nil when it is forged, expired or revoked.
    package func session(fromCookie value: String, now: Double = WallClock.now()) -> Session? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "1", let expires = Int64(parts[1]), parts[2] == "0" || parts[2] == "1",
            parts[3].count == 32
        else { return nil }
        let body = parts[0..<4].joined(separator: ".")
        guard Self.constantTimeEqual(String(parts[4]), mac(body)), Double(expires) > now else { return nil }
        let nonce = String(parts[3])
        if revoked.withLock({ $0[nonce] != nil }) { return nil }
        return Session(nonce: nonce, expires: Double(expires), csrfToken: csrfToken(nonce), authenticated: parts[2] == "1")
    }

    /// Ends a session before it expires (logout).
    package func revoke(_ session: Session, now: Double = WallClock.now()) {
        revoked.withLock { list in
            list = list.filter { $0.value > now }
            if list.count < 10_000 { list[session.nonce] = session.expires }
        }
    }

    /// True when `token` is the CSRF token of `session`.
    package func checkCSRF(_ token: String?, for session: Session) -> Bool {
        guard let token else { return false }
        return Self.constantTimeEqual(token, session.csrfToken)
    }

    private func csrfToken(_ nonce: String) -> String { mac("csrf:" + nonce) }

    private func mac(_ text: String) -> String {
        Self.hex(Array(HMAC<SHA256>.authenticationCode(for: Array(text.utf8), using: key)))
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
