// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import HTTPTypes

/// Adds the configured tile host, and nothing else, to the content security policy's
/// `img-src` of the pages (HTML responses): the maps' tiles are images from that origin.
struct MapPolicyMiddleware: RouterMiddleware {
    typealias Context = WebContext
    /// `scheme://host[:port]` of `[web] map_tiles`; nil when tiles are off.
    let tileOrigin: String?

    func handle(_ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if let current = response.headers[.contentSecurityPolicy] {
            response.headers[.contentSecurityPolicy] = policy(current, contentType: response.headers[.contentType] ?? "")
        }
        return response
    }

    /// `policy` with the tile origin in `img-src` for an HTML page; as it is otherwise.
    func policy(_ policy: String, contentType: String) -> String {
        guard let tileOrigin, contentType.hasPrefix("text/html") else { return policy }
        return policy.replacing("img-src 'self' data:", with: "img-src 'self' data: \(tileOrigin)")
    }
}
