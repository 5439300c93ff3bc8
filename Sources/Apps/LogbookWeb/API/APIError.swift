// SPDX-License-Identifier: MIT
package import HTTPTypes
package import Hummingbird
package import LogbookCore

/// A refusal with a JSON body: `{"error":{"code":"…","message":"…"}}`, the control socket's
/// error shape. Every bad input ends here with a 4xx, never a 500.
package struct APIError: Error, HTTPResponseError, Sendable, CustomStringConvertible {
    package var status: HTTPResponse.Status
    /// Machine-readable, snake_case.
    package var code: String
    /// One line for a person.
    package var message: String
    /// Extra headers (`Retry-After`, `WWW-Authenticate`).
    package var headers: HTTPFields

    package init(_ status: HTTPResponse.Status, _ code: String, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    package var description: String { "\(status.code) \(code): \(message)" }

    package var json: JSONValue {
        .object([("error", .object([("code", .string(code)), ("message", .string(message))]))])
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = Responses.json(json, status: status)
        for field in headers { response.headers.append(field) }
        return response
    }

    package static func badRequest(_ message: String) -> APIError { APIError(.badRequest, "bad_request", message) }
    package static func notFound(_ message: String) -> APIError { APIError(.notFound, "not_found", message) }
}

/// Response builders shared by the API and the pages.
package enum Responses {
    /// Headers every response carries: no sniffing, no framing, no referrer leaks, and a
    /// content security policy that allows only this origin (no CDN, no inline script).
    static func secure(_ headers: inout HTTPFields) {
        headers[.xContentTypeOptions] = "nosniff"
        headers[.frameOptions] = "DENY"
        headers[.referrerPolicy] = "same-origin"
        headers[.contentSecurityPolicy] =
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
            + "frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
    }

    package static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        text(value.serialized, contentType: "application/json", status: status)
    }

    /// A JSON document already serialized (the daemon's live state, as it sent it).
    package static func jsonText(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        self.text(text, contentType: "application/json", status: status)
    }

    package static func html(_ page: String, status: HTTPResponse.Status = .ok) -> Response {
        text(page, contentType: "text/html; charset=utf-8", status: status)
    }

    package static func text(_ body: String, contentType: String, status: HTTPResponse.Status = .ok) -> Response {
        bytes(ByteBuffer(string: body), contentType: contentType, status: status)
    }

    package static func bytes(_ buffer: ByteBuffer, contentType: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers: HTTPFields = [.contentType: contentType, .cacheControl: "no-store"]
        secure(&headers)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: buffer))
    }

    /// 303 See Other to `location` (after a form post).
    package static func redirect(_ location: String) -> Response {
        var headers: HTTPFields = [.location: location, .cacheControl: "no-store"]
        secure(&headers)
        return Response(status: .seeOther, headers: headers)
    }
}
