// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Testing

@testable import LogbookWeb

/// Refusals over HTTP: unauthenticated reads and writes, wrong passwords until the limiter
/// stops them, wrong CSRF tokens, foreign Host names, bad input; and the LAN bind.
@Suite(.serialized) struct AuthServerTests {
    @Test(.timeLimit(.minutes(2)))
    func withAPasswordEverythingButLoginNeedsIt() async throws {
        let dir = try TemporaryDirectory("wau")
        defer { dir.remove() }
        try await WebHarness.run(WebHarness.configuration(dir, password: "correct horse")) { _, client in
            // Reads and writes without a session.
            for (method, path) in [("GET", "/api/live"), ("GET", "/api/vehicles"), ("POST", "/api/trip/stop"), ("POST", "/api/trip/start")] {
                let r = try await client.request(method, path)
                #expect(r.status == 401 && r.json?["error"]?["code"] == .string("unauthorized"), "\(method) \(path): \(r)")
                #expect(r.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            }
            let page = try await client.request("GET", "/trips")
            #expect(page.status == 303 && page.header("Location") == "/login?next=/trips")
            let form = try await client.request("POST", "/trip/stop", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "csrf=x")
            #expect(form.status == 303 && form.header("Location")?.hasPrefix("/login") == true, "\(form)")
            // Public: the login page, the assets, the API document.
            #expect(try await client.request("GET", "/login").status == 200)
            #expect(try await client.request("GET", "/api/openapi.json").status == 200)
            let css = try await client.request("GET", Assets.shared.url("app.css"))
            #expect(css.status == 200 && css.header("Cache-Control")?.contains("immutable") == true)
            // With a password, other Host names are fine (the phone uses the Pi's LAN address).
            #expect(try await client.request("GET", "/login", hostHeader: "pi.lan:8080").status == 200)

            // A bearer token is the password; the daemon is absent, so the write gets 503.
            let bearer = try await client.request("POST", "/api/trip/stop", headers: ["Authorization": "Bearer correct horse"])
            #expect(bearer.status == 503 && bearer.json?["error"]?["code"] == .string("daemon_unreachable"), "\(bearer)")

            // Log in through the API: a cookie, then cookie writes need the CSRF token.
            let login = try await client.request(
                "POST", "/api/session", headers: ["Content-Type": "application/json"], body: #"{"password":"correct horse"}"#)
            #expect(login.status == 200 && login.json?["authenticated"] == .bool(true), "\(login)")
            let cookie = try #require(login.sessionCookie)
            let csrf = try #require(login.json?["csrf_token"]?.stringValue)
            let me = try await client.request("GET", "/api/session", headers: ["Cookie": "logbook_session=\(cookie)"])
            #expect(me.json?["authenticated"] == .bool(true))
            let noCSRF = try await client.request("POST", "/api/trip/stop", headers: ["Cookie": "logbook_session=\(cookie)"])
            #expect(noCSRF.status == 403 && noCSRF.json?["error"]?["code"] == .string("csrf"))
            let withCSRF = try await client.request("POST", "/api/trip/stop", headers: ["Cookie": "logbook_session=\(cookie)", "X-CSRF-Token": csrf])
            #expect(withCSRF.status == 503, "reaches the (absent) daemon: \(withCSRF)")
            let forged = try await client.request("GET", "/api/live", headers: ["Cookie": "logbook_session=1.9999999999.1.\(String(repeating: "a", count: 32)).00"])
            #expect(forged.status == 401)

            // Wrong passwords: 401 five times, then 429 with Retry-After, even for the right one.
            for _ in 0..<5 {
                let wrong = try await client.request("POST", "/api/session", headers: ["Content-Type": "application/json"], body: #"{"password":"guess"}"#)
                #expect(wrong.status == 401 && wrong.json?["error"]?["code"] == .string("wrong_password"))
            }
            let limited = try await client.request(
                "POST", "/api/session", headers: ["Content-Type": "application/json"], body: #"{"password":"correct horse"}"#)
            #expect(limited.status == 429 && limited.header("Retry-After") != nil, "\(limited)")
            let limitedForm = try await client.request(
                "POST", "/login", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "password=correct+horse&next=/")
            #expect(limitedForm.status == 429 && limitedForm.text.contains("too many wrong passwords"))
            let limitedBearer = try await client.request("GET", "/api/live", headers: ["Authorization": "Bearer correct horse"])
            #expect(limitedBearer.status == 429)
            // The session from before still works: no password is checked for it.
            #expect(try await client.request("GET", "/api/session", headers: ["Cookie": "logbook_session=\(cookie)"]).json?["authenticated"] == .bool(true))

            // Logout revokes the cookie.
            let out = try await client.request("DELETE", "/api/session", headers: ["Cookie": "logbook_session=\(cookie)", "X-CSRF-Token": csrf])
            #expect(out.status == 200)
            #expect(try await client.request("GET", "/api/live", headers: ["Cookie": "logbook_session=\(cookie)"]).status == 401)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func badInputGets4xxWithAJSONError() async throws {
        let dir = try TemporaryDirectory("wbi")
        defer { dir.remove() }
        try await WebHarness.run(WebHarness.configuration(dir)) { _, client in
            let session = try await client.request("GET", "/api/session")
            let h = ["Cookie": "logbook_session=\(session.sessionCookie ?? "")", "X-CSRF-Token": session.json?["csrf_token"]?.stringValue ?? ""]
            func post(_ body: String, type: String = "application/json") async throws -> HTTPTestClient.Reply {
                try await client.request("POST", "/api/trip/start", headers: h.merging(["Content-Type": type]) { a, _ in a }, body: body)
            }
            for (body, status) in [
                ("not json", 400), ("[1,2]", 400), (#"{"vehicle":5}"#, 400), (#"{"vehicle":"golf","x":1}"#, 400),
                (#"{"vehicle":"#, 400), (String(repeating: " ", count: 70_000) + "{}", 413),
            ] {
                let r = try await post(body)
                #expect(r.status == status && r.json?["error"]?["code"]?.stringValue != nil, "\(body.prefix(20)): \(r)")
            }
            #expect(try await post("{}", type: "text/plain").status == 415)
            let missing = try await client.request("GET", "/api/nothing-here")
            #expect(missing.status == 404 && missing.json?["error"]?["code"] == .string("not_found"), "\(missing)")
            let asset = try await client.request("GET", "/assets/../../etc/passwd")
            #expect(asset.status == 404)
            // Without a password only loopback Host names are served (DNS rebinding).
            let rebound = try await client.request("GET", "/api/live", hostHeader: "evil.example")
            #expect(rebound.status == 421 && rebound.json?["error"]?["code"] == .string("host_not_allowed"), "\(rebound)")
            #expect(try await client.request("GET", "/api/session", hostHeader: "localhost:8080").status == 200)
        }
    }

    @Test func aLANAddressWithoutPasswordStopsTheProgramWithExit78() throws {
        let dir = try TemporaryDirectory("wln")
        defer { dir.remove() }
        let cfg = dir.file("logbookd.toml")
        try "[web]\nlisten = \"192.0.2.10:8080\"\n".write(toFile: cfg, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.product("logbook-web"))
        process.arguments = ["--config", cfg]
        let pipe = Pipe()
        process.standardError = pipe
        try process.run()
        process.waitUntilExit()
        let stderr = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 78)
        #expect(stderr.hasPrefix("logbook-web: config error: web.password_file: required to listen on 192.0.2.10:8080"), "\(stderr)")
        #expect(stderr.split(separator: "\n").count == 1)
    }
}
