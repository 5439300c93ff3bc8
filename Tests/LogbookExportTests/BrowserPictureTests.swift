// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Testing

@testable import LogbookExport

/// The Swiss drive's picture, from a journal the real daemon wrote, rendered by Debian's
/// headless Chromium and checked with Pillow: the expected size, not blank, red, yellow and
/// green route pixels; the HTML page in light and dark mode.
///
/// Set `LOGBOOK_PICTURE_DIR` to keep the SVG, HTML and PNGs (scripts/trip-picture.sh uses it).
@Suite(.timeLimit(.minutes(6))) struct BrowserPictureTests {
    /// The map's area in the SVG, less the panels drawn over it (key, legend) whose swatches
    /// would count as route colour.
    static let mapArea = ["--map", "0", "40", "800", "520", "--exclude", "0", "40", "170", "80", "--exclude", "580", "452", "800", "520"]

    struct Rendered {
        let dir: TemporaryDirectory
        let picture: TripPicture
        let svg: String
        let html: String
    }

    func render() async throws -> Rendered {
        let catalog = try JournalCatalog(directory: try await RecordedDrives.shared.journal(.swiss))
        let trip = try #require(try catalog.trips(matching: TripQuery(includeDiscarded: false)).first)
        let options = TripPictureOptions(units: .metric, utcOffset: 3600, timeZoneName: "CET", vehicleName: "Golf")
        let picture = try #require(try TripPicture.load(trip.id, from: catalog, options: options))
        let dir = try TemporaryDirectory("pic")
        let svg = dir.file("trip.svg"), html = dir.file("trip.html")
        try picture.svg().write(toFile: svg, atomically: true, encoding: .utf8)
        try picture.html().write(toFile: html, atomically: true, encoding: .utf8)
        return Rendered(dir: dir, picture: picture, svg: svg, html: html)
    }

    /// A PNG of `file` at `width`×`height` CSS pixels from headless Chromium.
    func screenshot(_ file: String, width: Int, height: Int, dark: Bool = false, in dir: TemporaryDirectory) async throws -> String {
        let png = dir.file("\((file as NSString).lastPathComponent)\(dark ? "-dark" : "").png")
        // A profile of its own: Chromium refuses to share one with another instance.
        var args = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
            "--user-data-dir=\(dir.file("profile-\(UUID().uuidString)"))", "--window-size=\(width),\(height)",
            "--screenshot=\(png)",
        ]
        if dark { args.append("--force-dark-mode") }
        let r = try await Tool.run("/usr/bin/chromium", args + ["file://\(file)"], timeout: .seconds(90))
        #expect(r.status == 0, "chromium: \(r.errors.suffix(1500))")
        keep(png)
        return png
    }

    func check(_ png: String, _ args: [String]) async throws -> JSONValue {
        let r = try await Tool.run(try await Tool.python(), [Tool.checker, "png", png] + args)
        #expect(r.status == 0, "png check: \(r.output) \(r.errors)")
        return try JSONValue.parse(r.output)
    }

    func keep(_ file: String) {
        guard let dir = ProcessInfo.processInfo.environment["LOGBOOK_PICTURE_DIR"] else { return }
        let target = dir + "/" + (file as NSString).lastPathComponent
        try? FileManager.default.removeItem(atPath: target)
        try? FileManager.default.copyItem(atPath: file, toPath: target)
    }

    func route(_ found: JSONValue, _ colour: String) -> Int { Int(found["route"]?[colour]?.doubleValue ?? 0) }

    @Test func theSwissPictureInChromiumShowsTheRouteInRedYellowAndGreen() async throws {
        let r = try await render()
        defer { r.dir.remove() }
        keep(r.svg)
        keep(r.html)
        let svgBytes = try FileManager.default.attributesOfItem(atPath: r.svg)[.size] as? Int ?? 0
        let htmlBytes = try FileManager.default.attributesOfItem(atPath: r.html)[.size] as? Int ?? 0
        let text = try String(contentsOfFile: r.svg, encoding: .utf8)
        let vertices = text.split(separator: "\n").filter { $0.hasPrefix("<polyline") }
            .reduce(0) { $0 + $1.split(separator: " ").count - 1 }
        print("export: picture: swiss: SVG \(svgBytes) bytes, HTML \(htmlBytes) bytes; \(r.picture.points.count) points drawn with \(vertices) vertices")
        #expect(svgBytes < 200_000)
        let lint = try await Tool.run("/usr/bin/xmllint", ["--noout", r.svg])
        #expect(lint.status == 0, "SVG is not well-formed XML: \(lint.errors.prefix(1000))")

        let png = try await screenshot(r.svg, width: 800, height: 760, in: r.dir)
        let found = try await check(png, ["800", "760"] + Self.mapArea + ["--svg", r.svg])
        // What the picture must show comes from the SVG itself: Pillow draws its route and markers
        // (no anti-aliasing) and counts the same colours in the same area. Chromium's rendering
        // must show each colour the drive has, at least half as much (a 4 px line keeps 2-3 px of
        // pure colour across after anti-aliasing) — however few slow stretches a recording has.
        func expected(_ colour: String) -> Int { Int(found["expected"]?[colour]?.doubleValue ?? 0) }
        let shares = ["red", "yellow", "green"].map { c in "\(c) \(route(found, c)) of \(expected(c))" }
        print("export: picture: swiss: route pixels \(shares.joined(separator: ", ")) drawn from the SVG")
        for colour in ["red", "yellow", "green"] {
            #expect(expected(colour) > 0, "the Swiss drive has \(colour) stretches: \(found)")
            #expect(Double(route(found, colour)) >= 0.5 * Double(expected(colour)), "\(colour): \(found)")
        }
    }

    @Test func theHTMLPageRendersInLightAndDarkMode() async throws {
        let r = try await render()
        defer { r.dir.remove() }
        // The page shows the SVG at its own size (and the speed chart in the same colours): each
        // colour at least half as much as the SVG alone shows, in either mode.
        let alone = try await check(try await screenshot(r.svg, width: 800, height: 760, in: r.dir), ["800", "760"] + Self.mapArea)
        for dark in [false, true] {
            let png = try await screenshot(r.html, width: 880, height: 1500, dark: dark, in: r.dir)
            let found = try await check(png, ["880", "1500"])
            for colour in ["red", "yellow", "green"] {
                #expect(route(alone, colour) > 0 && 2 * route(found, colour) >= route(alone, colour), "\(colour) (dark \(dark)): \(found) vs \(alone)")
            }
            guard case .array(let bg)? = found["background"], let level = bg.first?.doubleValue else {
                Issue.record("no background pixel")
                continue
            }
            #expect(dark ? level < 40 : level > 200, "background \(bg) in \(dark ? "dark" : "light") mode")
        }
    }
}
