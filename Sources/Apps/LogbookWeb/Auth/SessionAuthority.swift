// SPDX-License-Identifier: MIT
package import LogbookPOSIX
internal import LogbookSodium
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
///
/// A logout is remembered in ``RevokedSessions`` (on disk when a store is given), so the
/// cookie stays refused after a restart; when that list would outgrow its bound, the
/// *generation* in the key goes up instead, ending every session at once.
package final class SessionAuthority: Sendable {
    private struct State {
        var key: [UInt8]
        var stored: RevokedSessions.Contents
    }

    private let password: String?
    private let store: RevokedSessions?
    private let state: Mutex<State>
    package let lifetime: Double

    /// The cookie's name.
    package static let cookieName = "logbook_session"

    /// - Parameter store: where logouts are kept (nil: in memory only, e.g. without a password,
    ///   where a cookie proves nothing anyway).
    /// - Throws: ``AtomicFileError`` when the store cannot be read or written.
    package init(password: String?, lifetime: Double, store: RevokedSessions? = nil) throws(AtomicFileError) {
        self.password = password
        self.store = store
        self.lifetime = lifetime
        var stored = RevokedSessions.Contents()
        if let store {
            if let loaded = try store.load() {
                stored = loaded
            } else {
                // Not a sessions file: which logouts it held is unknown, so end every session.
                stored.generation = UInt64.random(in: 1...(1 << 52))
            }
            try store.save(stored)  // proves at start that logouts can be kept
        }
        state = Mutex(State(key: Self.key(password, generation: stored.generation), stored: stored))
    }

    private static func key(_ password: String?, generation: UInt64) -> [UInt8] {
        guard let password else { return Sodium.randomBytes(32) }
        // Generation 0 keeps the key (and the cookies) of versions before generations.
        let info = "logbook-web session v1" + (generation == 0 ? "" : " generation \(generation)")
        return HMACSHA256.deriveKey(inputKeyMaterial: Array(password.utf8), info: Array(info.utf8), outputByteCount: 32)
    }

    /// The sessions ended by logout and the generation, as kept.
    package var revocations: RevokedSessions.Contents { state.withLock { $0.stored } }

    /// True when `candidate` is the password (compared in constant time through MACs).
    package func checkPassword(_ candidate: String) -> Bool {
        guard let password else { return false }
        let key = state.withLock { $0.key }
        let mac = HMACSHA256.authenticationCode(for: Array(candidate.utf8), key: key)
        let wanted = HMACSHA256.authenticationCode(for: Array(password.utf8), key: key)
        var difference: UInt8 = 0
        for (a, b) in zip(mac, wanted) { difference |= a ^ b }
        return difference == 0
    }

    /// A new session and its cookie value.
    package func issue(authenticated: Bool, now: Double = WallClock.seconds()) -> (cookie: String, session: Session) {
        let nonce = Hex.encode((0..<16).map { _ in UInt8.random(in: 0...255) })
        let expires = (now + lifetime).rounded(.down)
        let body = "1.\(Int64(expires)).\(authenticated ? 1 : 0).\(nonce)"
        let key = state.withLock { $0.key }
        let session = Session(nonce: nonce, expires: expires, csrfToken: Self.mac("csrf:" + nonce, key), authenticated: authenticated)
        return (body + "." + Self.mac(body, key), session)
    }

    /// The session a cookie value stands for, or nil when it is forged, expired or revoked.
    package func session(fromCookie value: String, now: Double = WallClock.seconds()) -> Session? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "1", let expires = Int64(parts[1]), parts[2] == "0" || parts[2] == "1",
            parts[3].count == 32
        else { return nil }
        let body = parts[0..<4].joined(separator: ".")
        let nonce = String(parts[3])
        let (key, revoked) = state.withLock { ($0.key, $0.stored.revoked[nonce] != nil) }
        guard Self.constantTimeEqual(String(parts[4]), Self.mac(body, key)), Double(expires) > now, !revoked else { return nil }
        return Session(nonce: nonce, expires: Double(expires), csrfToken: Self.mac("csrf:" + nonce, key), authenticated: parts[2] == "1")
    }

    /// Ends a session before it expires (logout), on disk before it returns.
    ///
    /// - Throws: ``AtomicFileError`` when the store could not be written (the session is
    ///   refused by this process anyway).
    package func revoke(_ session: Session, now: Double = WallClock.seconds()) throws(AtomicFileError) {
        let snapshot: RevokedSessions.Contents = state.withLock { s in
            s.stored.revoked = s.stored.revoked.filter { $0.value > now }
            if s.stored.revoked.count >= store?.limit ?? RevokedSessions.defaultLimit {
                s.stored.generation &+= 1
                s.stored.revoked = [:]
                s.key = Self.key(password, generation: s.stored.generation)
            } else {
                s.stored.revoked[session.nonce] = session.expires
            }
            return s.stored
        }
        try store?.save(snapshot)
    }

    /// True when `token` is the CSRF token of `session`.
    package func checkCSRF(_ token: String?, for session: Session) -> Bool {
        guard let token else { return false }
        return Self.constantTimeEqual(token, session.csrfToken)
    }

    private static func mac(_ text: String, _ key: [UInt8]) -> String {
        Hex.encode(HMACSHA256.authenticationCode(for: Array(text.utf8), key: key))
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }
}
