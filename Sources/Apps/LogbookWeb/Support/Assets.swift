// SPDX-License-Identifier: MIT
package import Hummingbird
internal import HTTPTypes
internal import NIOCore

/// The stylesheet, script, icon, manifest and API document, embedded in the binary at build
/// time (`.embedInCode`): the Pi serves everything itself, with no file to install or lose,
/// and the phone needs no internet.
package struct Assets: Sendable {
    package struct Asset: Sendable {
        package let contentType: String
        package let buffer: ByteBuffer
        /// A short content hash: the URL changes with the content, so caching forever is safe.
        package let version: String
    }

    package let files: [String: Asset]

    /// The one set of assets of the process.
    package static let shared = Assets()

    package init() {
        func asset(_ bytes: [UInt8], _ type: String) -> Asset {
            Asset(contentType: type, buffer: ByteBuffer(bytes: bytes), version: Self.fnv1a(bytes))
        }
        files = [
            "app.css": asset(PackageResources.app_css, "text/css; charset=utf-8"),
            "app.js": asset(PackageResources.app_js, "text/javascript; charset=utf-8"),
            "map.js": asset(PackageResources.map_js, "text/javascript; charset=utf-8"),
            "icon.svg": asset(PackageResources.icon_svg, "image/svg+xml"),
            "manifest.webmanifest": asset(PackageResources.manifest_webmanifest, "application/manifest+json"),
            "openapi.json": asset(Array(OpenAPIDocument.text.utf8), "application/json"),
        ]
    }

    /// `/assets/NAME?v=HASH`.
    package func url(_ name: String) -> String { "/assets/\(name)?v=\(files[name]?.version ?? "0")" }

    static func fnv1a(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return String(h & 0xffff_ffff, radix: 16)
    }

    func response(_ name: String, cacheForever: Bool) throws(APIError) -> Response {
        guard let asset = files[name] else { throw APIError.notFound("no asset \(name)") }
        var response = Responses.bytes(asset.buffer, contentType: asset.contentType)
        response.headers[.cacheControl] = cacheForever ? "public, max-age=31536000, immutable" : "no-cache"
        return response
    }
}

extension WebApp {
    func addAssetRoutes(to router: Router<WebContext>) {
        router.get("/assets/:name") { request, context -> Response in
            let name = context.parameters.get("name") ?? ""
            return try assets.response(name, cacheForever: request.uri.queryParameters["v"] != nil)
        }
        router.get("/favicon.ico") { _, _ -> Response in try assets.response("icon.svg", cacheForever: false) }
        router.get("/manifest.webmanifest") { _, _ -> Response in try assets.response("manifest.webmanifest", cacheForever: false) }
        router.get("/api/openapi.json") { _, _ -> Response in try assets.response("openapi.json", cacheForever: false) }
    }
}
