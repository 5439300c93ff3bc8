// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import HTTPTypes
internal import LogbookPOSIX
internal import NIOCore

/// Leaflet as Debian's `libjs-leaflet` installs it (a `Depends:` of the package), served from
/// that directory under `/leaflet/`: the script, its stylesheet and the images it names. Read
/// once at start; a missing file is a 404 and the maps say so on the page.
struct LeafletFiles: Sendable {
    /// Served name → (content type, path below the directory).
    static let names: [String: String] = [
        "leaflet.js": "text/javascript; charset=utf-8", "leaflet.css": "text/css; charset=utf-8",
        "images/marker-icon.png": "image/png", "images/marker-icon-2x.png": "image/png", "images/marker-shadow.png": "image/png",
        "images/layers.png": "image/png", "images/layers-2x.png": "image/png",
    ]

    let files: [String: (type: String, bytes: ByteBuffer)]

    init(directory: String) {
        var files: [String: (type: String, bytes: ByteBuffer)] = [:]
        for (name, type) in Self.names {
            if let bytes = try? FileContents.read(directory + "/" + name, limit: 2 << 20) { files[name] = (type, ByteBuffer(bytes: bytes)) }
        }
        self.files = files
    }

    /// True when the script and stylesheet were found.
    var installed: Bool { files["leaflet.js"] != nil && files["leaflet.css"] != nil }

    func response(_ name: String) throws(APIError) -> Response {
        guard let file = files[name] else { throw APIError.notFound("no /leaflet/\(name): is libjs-leaflet installed?") }
        var response = Responses.bytes(file.bytes, contentType: file.type)
        response.headers[.cacheControl] = "public, max-age=86400"
        return response
    }
}

extension WebApp {
    func addLeafletRoutes(to router: Router<WebContext>) {
        let files = leaflet
        router.get("/leaflet/:name") { _, context -> Response in try files.response(context.parameters.get("name") ?? "") }
        router.get("/leaflet/images/:name") { _, context -> Response in try files.response("images/" + (context.parameters.get("name") ?? "")) }
    }
}
