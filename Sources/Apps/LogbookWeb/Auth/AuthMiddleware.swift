// SPDX-License-Identifier: MIT
internal import HTTPTypes
package import Hummingbird
internal import NIOCore

/// Authentication, CSRF and origin checks for every request.
///
/// - With a password: everything but the login, the assets and the API document needs a
///   session cookie (from logging in) or `Authorization: Bearer <password>`. Guesses, by
///   form, API or bearer token, go through the ``LoginLimiter``.
/// - Without one (loopback only): every browser gets a session cookie that carries its
///   CSRF token, and only loopback `Host` names are served, so a web page elsewhere cannot
///   reach the app through DNS rebinding.
/// - Every write (POST, PUT, PATCH, DELETE) by a cookie session needs its CSRF token in
///   `X-CSRF-Token` or the form field `csrf`; a write whose `Origin` is another site is refused.
package struct AuthMiddleware: RouterMiddleware {
    package typealias Context = WebContext

    let authority: SessionAuthority
    let limiter: LoginLimiter
    let requiresLogin: Bool
    let secureCookies: Bool

    package init(authority: SessionAuthority, limiter: LoginLimiter, requiresLogin: Bool, secureCookies: Bool) {
        self.authority = authority
        self.limiter = limiter
        self.requiresLogin = requiresLogin
        self.secureCookies = secureCookies
    }

    static let csrfHeader = HTTPField.Name.csrfToken

    package func handle(_ input: Request, context: WebContext, next: (Request, WebContext) async throws -> Response) async throws -> Response {
        var request = input
        var context = context
        let path = request.uri.path
        let host = request.head.authority ?? ""
        if !requiresLogin, !ListenAddress.isLoopbackHost(Self.hostName(host)) {
            throw APIError(.misdirectedRequest, "host_not_allowed", "this address serves only loopback host names (set [web] password_file to serve \(host))")
        }
        let write = Self.isWrite(request.method)
        if write, let origin = request.headers[.origin], origin != "null", !Self.sameOrigin(origin, host: host) {
            throw APIError(.forbidden, "cross_origin", "a write from \(origin) is refused")
        }
        if let cookie = request.cookies[SessionAuthority.cookieName] {
            context.session = authority.session(fromCookie: cookie.value)
        }
        if let header = request.headers[.authorization], requiresLogin {
            guard header.lowercased().hasPrefix("bearer ") else {
                throw APIError(.unauthorized, "unauthorized", "only Bearer authorization is accepted", headers: Self.challenge)
            }
            try checkGuess(String(header.dropFirst(7)), client: context.clientAddress)
            context.bearer = true
        }
        if !requiresLogin, context.session == nil {
            let (cookie, session) = authority.issue(authenticated: false)
            context.session = session
            context.newSessionCookie = cookie
        }
        context.authorized = !requiresLogin || context.bearer || context.session?.authenticated == true
        if !context.authorized, !Self.isPublic(path, method: request.method) {
            guard !path.hasPrefix("/api/") else {
                throw APIError(
                    .unauthorized, "unauthorized", "log in first (POST /api/session) or send Authorization: Bearer <password>",
                    headers: Self.challenge)
            }
            let next = request.method == .get ? path : "/"
            return Responses.redirect("/login?next=" + Self.queryEscaped(next))
        }
        if write, !context.bearer, !(Self.isLogin(path) && request.method == .post) {
            var token = request.headers[Self.csrfHeader]
            if token == nil, request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
                let body = try await request.collectBody(upTo: context.maxUploadSize)
                token = FormFields(body.readableBytesView)["csrf"]
            }
            guard let session = context.session, authority.checkCSRF(token, for: session) else {
                throw APIError(.forbidden, "csrf", "missing or wrong CSRF token (X-CSRF-Token); reload the page")
            }
        }
        var response = try await next(request, context)
        if let cookie = context.newSessionCookie, !response.headers[values: .setCookie].contains(where: { $0.hasPrefix(SessionAuthority.cookieName + "=") }) {
            response.headers.append(HTTPField(name: .setCookie, value: setCookie(cookie, maxAge: Int(authority.lifetime))))
        }
        return response
    }

    /// Checks a password guess against the limiter: 429 when too many failed, 401 when wrong.
    package func checkGuess(_ guess: String, client: String) throws(APIError) {
        if let wait = limiter.wait(for: client) {
            throw APIError(
                .tooManyRequests, "too_many_attempts", "too many wrong passwords; try again in \(Int(wait)) s",
                headers: [.retryAfter: String(Int(wait))])
        }
        guard authority.checkPassword(guess) else {
            limiter.failed(client)
            throw APIError(.unauthorized, "wrong_password", "wrong password", headers: Self.challenge)
        }
    }

    /// The `Set-Cookie` value for a session cookie.
    package func setCookie(_ value: String, maxAge: Int) -> String {
        "\(SessionAuthority.cookieName)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (secureCookies ? "; Secure" : "")
    }

    static let challenge: HTTPFields = [.wwwAuthenticate: "Bearer realm=\"logbook\""]

    static func isWrite(_ method: HTTPRequest.Method) -> Bool {
        method == .post || method == .put || method == .patch || method == .delete
    }

    static func isLogin(_ path: String) -> Bool { path == "/login" || path == "/api/session" }

    /// What anyone may fetch: the login, the assets, the API document.
    static func isPublic(_ path: String, method: HTTPRequest.Method) -> Bool {
        isLogin(path) || path.hasPrefix("/assets/") || path == "/api/openapi.json" || path == "/favicon.ico"
            || path == "/manifest.webmanifest"
    }

    /// `host` of `host:port`, `[v6]:port`.
    static func hostName(_ authority: String) -> String {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        if let colon = authority.lastIndex(of: ":"), authority.firstIndex(of: ":") == colon { return String(authority[..<colon]) }
        return authority
    }

    /// True when `origin` (`http://host:port`) names the host the request was sent to.
    static func sameOrigin(_ origin: String, host: String) -> Bool {
        guard let scheme = origin.firstRange(of: "://") else { return false }
        return origin[scheme.upperBound...].lowercased() == host.lowercased()
    }

    static func queryEscaped(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                out += "%" + String(b, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
