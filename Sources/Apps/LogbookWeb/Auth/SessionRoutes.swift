// SPDX-License-Identifier: MIT
internal import HTTPTypes
internal import Logging
internal import Hummingbird
internal import LogbookCore
internal import NIOCore

extension WebApp {
    /// `/api/session` (log in, out, and read the CSRF token) and the login page.
    func addSessionRoutes(to router: Router<WebContext>) {
        router.get("/api/session") { _, context -> Response in
            Responses.json(sessionJSON(context.session, authorized: context.authorized))
        }
        router.post("/api/session") { request, context -> Response in
            var request = request
            let body = try await JSONBody.object(&request, context: context, allowed: ["password"])
            guard let password = body["password"]?.stringValue else { throw APIError.badRequest("\"password\" (a string) is required") }
            let session = try logIn(password, client: context.clientAddress)
            var response = Responses.json(sessionJSON(session.session, authorized: true))
            response.headers.append(HTTPField(name: .setCookie, value: auth.setCookie(session.cookie, maxAge: Int(authority.lifetime))))
            return response
        }
        router.delete("/api/session") { _, context -> Response in
            if let session = context.session { authority.revoke(session) }
            var response = Responses.json(sessionJSON(nil, authorized: !configuration.requiresLogin))
            response.headers.append(HTTPField(name: .setCookie, value: auth.setCookie("", maxAge: 0)))
            return response
        }
        router.get("/login") { request, context -> Response in
            guard configuration.requiresLogin else { return Responses.redirect("/") }
            return Responses.html(LoginPage.render(next: Self.safeNext(request.uri.queryParameters["next"].map(String.init)), error: nil))
        }
        router.post("/login") { request, context -> Response in
            guard configuration.requiresLogin else { return Responses.redirect("/") }
            var request = request
            let form = FormFields(try await request.collectBody(upTo: context.maxUploadSize).readableBytesView)
            let next = Self.safeNext(form["next"])
            do throws(APIError) {
                let session = try logIn(form["password"] ?? "", client: context.clientAddress)
                var response = Responses.redirect(next)
                response.headers.append(HTTPField(name: .setCookie, value: auth.setCookie(session.cookie, maxAge: Int(authority.lifetime))))
                return response
            } catch {
                var response = Responses.html(LoginPage.render(next: next, error: error.message), status: error.status)
                for field in error.headers { response.headers.append(field) }
                return response
            }
        }
        router.post("/logout") { _, context -> Response in
            if let session = context.session { authority.revoke(session) }
            var response = Responses.redirect(configuration.requiresLogin ? "/login" : "/")
            response.headers.append(HTTPField(name: .setCookie, value: auth.setCookie("", maxAge: 0)))
            return response
        }
    }

    /// Checks a password (rate-limited) and issues a signed-in session.
    private func logIn(_ password: String, client: String) throws(APIError) -> (cookie: String, session: Session) {
        guard configuration.requiresLogin else {
            throw APIError(.conflict, "no_login", "this server has no password: no login is needed")
        }
        try auth.checkGuess(password, client: client)
        logger.info("web: signed in", metadata: ["client": "\(client)"])
        return authority.issue(authenticated: true)
    }

    private func sessionJSON(_ session: Session?, authorized: Bool) -> JSONValue {
        .object([
            ("login_required", .bool(configuration.requiresLogin)),
            ("authenticated", .bool(authorized)),
            ("csrf_token", .string(session?.csrfToken)),
        ])
    }

    /// A redirect target from a form: only a local path (never `//host` or a URL).
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\"),
            !next.unicodeScalars.contains(where: { $0.value < 0x20 })
        else { return "/" }
        return next
    }
}
