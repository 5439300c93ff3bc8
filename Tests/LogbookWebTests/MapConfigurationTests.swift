// SPDX-License-Identifier: MIT
import Foundation
import LogbookConfig
import LogbookTestSupport
import Testing

@testable import LogbookWeb

/// `[web] map_tiles`: OpenStreetMap's tiles and attribution by default, off when empty, a bad
/// template refused naming the key; the content security policy gains exactly the tile origin.
@Suite struct MapConfigurationTests {
    func load(_ toml: String, in dir: TemporaryDirectory) throws(ConfigError) -> WebConfiguration {
        let file = dir.file("logbookd.toml")
        _ = FileManager.default.createFile(atPath: file, contents: Data(toml.utf8))
        return try WebConfiguration.load(file: file, environment: [:])
    }

    @Test func openStreetMapByDefaultOffWhenEmptyAndACustomHost() throws {
        let dir = try TemporaryDirectory("wmap")
        defer { dir.remove() }
        let byDefault = try load("", in: dir).mapTiles
        #expect(byDefault.template == "https://tile.openstreetmap.org/{z}/{x}/{y}.png")
        #expect(byDefault.attribution == "© OpenStreetMap contributors" && byDefault.origin == "https://tile.openstreetmap.org")
        let off = try load("[web]\nmap_tiles = \"\"\n", in: dir).mapTiles
        #expect(!off.enabled && off.origin == nil)
        let own = try load("[web]\nmap_tiles = \"http://127.0.0.1:8099/t/{z}/{x}/{y}.png?k=1\"\nmap_attribution = \"Mine\"\n", in: dir).mapTiles
        #expect(own.origin == "http://127.0.0.1:8099" && own.attribution == "Mine")
        let sub = try load("[web]\nmap_tiles = \"https://{s}.tile.example.org/{z}/{x}/{y}.png\"\n", in: dir).mapTiles
        #expect(sub.origin == "https://*.tile.example.org" && sub.attribution == "")
    }

    @Test(arguments: [
        ("ftp://tiles.example/{z}/{x}/{y}.png", "http:// or https://"), ("https://tiles.example/{z}/{x}.png", "lacks {y}"),
        ("tiles.example/{z}/{x}/{y}", "http:// or https://"), ("https:///{z}/{x}/{y}.png", "http:// or https://"),
        ("https://evil.example/{z}/{x}/{y}.png; script-src *", "characters a URL cannot hold"),
    ])
    func aBadTemplateIsAConfigErrorNamingTheKey(_ template: String, _ says: String) throws {
        let dir = try TemporaryDirectory("wmap")
        defer { dir.remove() }
        do {
            _ = try load("[web]\nmap_tiles = \"\(template)\"\n", in: dir)
            Issue.record("accepted \(template)")
        } catch {
            #expect(error.key == "web.map_tiles" && error.description.contains(says), "\(error)")
        }
    }

    @Test func thePagePolicyAllowsExactlyTheTileOrigin() async throws {
        let policy = "default-src 'self'; img-src 'self' data:; style-src 'self'"
        let middleware = MapPolicyMiddleware(tileOrigin: "http://127.0.0.1:8099")
        #expect(middleware.policy(policy, contentType: "text/html; charset=utf-8")
            == "default-src 'self'; img-src 'self' data: http://127.0.0.1:8099; style-src 'self'")
        #expect(middleware.policy(policy, contentType: "application/json") == policy)
        #expect(MapPolicyMiddleware(tileOrigin: nil).policy(policy, contentType: "text/html") == policy)
    }
}
