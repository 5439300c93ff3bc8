// SPDX-License-Identifier: MIT
import LogbookCore

/// A browser's session against the app under test: its cookie and CSRF token, JSON calls and
/// form posts the way the pages send them.
struct WebSession: Sendable {
    let client: HTTPTestClient
    let cookie: String
    let csrf: String

    static func open(_ client: HTTPTestClient) async throws -> WebSession {
        let session = try await client.request("GET", "/api/session")
        guard let cookie = session.sessionCookie, let csrf = session.json?["csrf_token"]?.stringValue else {
            throw HTTPTestClient.Failure("no session: \(session)")
        }
        return WebSession(client: client, cookie: cookie, csrf: csrf)
    }

    func get(_ path: String) async throws -> HTTPTestClient.Reply {
        try await client.request("GET", path, headers: ["Cookie": "logbook_session=\(cookie)"])
    }

    /// A JSON call: POST (or PATCH) with the CSRF header.
    func call(_ path: String, _ body: String, method: String = "POST") async throws -> HTTPTestClient.Reply {
        try await client.request(
            method, path, headers: ["Cookie": "logbook_session=\(cookie)", "X-CSRF-Token": csrf, "Content-Type": "application/json"], body: body)
    }

    /// A form post, fields in order (a checkbox after its hidden `off`), the token as a field.
    func form(_ path: String, _ fields: [(String, String)]) async throws -> HTTPTestClient.Reply {
        let body = ([("csrf", csrf)] + fields).map { "\($0.0)=\(Self.escaped($0.1))" }.joined(separator: "&")
        return try await client.request(
            "POST", path, headers: ["Cookie": "logbook_session=\(cookie)", "Content-Type": "application/x-www-form-urlencoded"], body: body)
    }

    /// The error code of a refusal.
    static func code(_ reply: HTTPTestClient.Reply) -> String? { reply.json?["error"]?["code"]?.stringValue }
    /// The message of a refusal.
    static func message(_ reply: HTTPTestClient.Reply) -> String? { reply.json?["error"]?["message"]?.stringValue }

    static func escaped(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            case UInt8(ascii: " "): out += "+"
            default: out += "%" + String(b, radix: 16, uppercase: true).paddedHex
            }
        }
        return out
    }
}

extension String {
    fileprivate var paddedHex: String { count == 1 ? "0" + self : self }
}

extension HTTPTestClient {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
