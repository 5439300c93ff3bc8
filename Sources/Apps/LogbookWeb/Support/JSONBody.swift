// SPDX-License-Identifier: MIT
internal import HTTPTypes
internal import Hummingbird
internal import LogbookCore
internal import NIOCore

/// Reads a JSON request body with the checks every endpoint wants.
package enum JSONBody {
    /// The body as a JSON object (an empty body is `{}`), with only the `allowed` members.
    ///
    /// - Throws: ``APIError`` 400 for a body that is not a JSON object or has other members,
    ///   415 for a content type other than JSON or a form, 413 when over the upload limit.
    static func object(_ request: inout Request, context: WebContext, allowed: Set<String>) async throws -> JSONValue {
        if let type = request.headers[.contentType]?.lowercased(), !type.hasPrefix("application/json") {
            throw APIError(.unsupportedMediaType, "unsupported_media_type", "send application/json")
        }
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        let bytes = buffer.readableBytesView
        if bytes.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 }) { return .object([]) }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw APIError.badRequest("the body is not JSON: \(error)")
        }
        guard case .object(let members) = value else { throw APIError.badRequest("the body must be a JSON object") }
        if let extra = members.first(where: { !allowed.contains($0.0) }) {
            throw APIError.badRequest("unknown field \"\(extra.0)\"")
        }
        return value
    }
}
