// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import Testing

@testable import LogbookStore

@Suite struct PointChunkCodecTests {
    /// Random points, with every "none" sentinel, odd nanoseconds, jumps back in time and
    /// across the antimeridian: decoding gives back exactly the stored integers.
    @Test func roundTripsEveryValue() throws {
        var rng = SeededGenerator(seed: 42)
        for round in 0..<200 {
            var t = Int64.random(in: 0...2_000_000_000, using: &rng) * 1_000_000_000
            var lat = Int32.random(in: -900_000_000...900_000_000, using: &rng)
            var lon = Int32.random(in: -1_800_000_000...1_800_000_000, using: &rng)
            let n = Int.random(in: 0...PointChunkCodec.pointsPerChunk, using: &rng)
            var points: [QuantisedPoint] = []
            for _ in 0..<n {
                t &+= Bool.random(using: &rng) ? 1_000_000_000 : Int64.random(in: -5_000_000_000...900_000_000_000, using: &rng)
                lat = Bool.random(using: &rng) ? lat &+ Int32.random(in: -500...500, using: &rng) : Int32.random(in: -900_000_000...900_000_000, using: &rng)
                lon = Int32.random(in: 0...9, using: &rng) == 0 ? QuantisedPoint.noneI32 : lon &+ Int32.random(in: -500...500, using: &rng)
                points.append(QuantisedPoint(
                    time: t, latitude: lat, longitude: lon, speed: Int32.random(in: 0...5, using: &rng) == 0 ? QuantisedPoint.noneU16 : UInt16.random(in: 0...6000, using: &rng),
                    track: UInt16.random(in: 0...35999, using: &rng), altitude: Bool.random(using: &rng) ? QuantisedPoint.noneI32 : Int32.random(in: -4000...90000, using: &rng),
                    eph: UInt16.random(in: 0...UInt16.max, using: &rng)))
            }
            let bytes = PointChunkCodec.encode(points[...])
            #expect(try PointChunkCodec.decode(bytes) == points, "round \(round)")
        }
    }

    @Test func aDamagedChunkIsRefused() throws {
        let points = (0..<100).map { i in
            QuantisedPoint(time: Int64(i) * 1_000_000_000, latitude: 472_900_000 + Int32(i * 200), longitude: 77_400_000 + Int32(i * 150),
                        speed: 2500, track: 9000, altitude: 4200, eph: 420)
        }
        let bytes = PointChunkCodec.encode(points[...])
        print("index-codec: \(points.count) points in \(bytes.count) bytes (\(String(format: "%.1f", Double(bytes.count) / Double(points.count))) bytes/point at a steady 90 km/h)")
        for i in bytes.indices {
            var damaged = bytes
            damaged[i] ^= 0x10
            #expect(throws: TripIndexError.self) { try PointChunkCodec.decode(damaged) }
        }
        #expect(throws: TripIndexError.self) { try PointChunkCodec.decode(Array(bytes.dropLast())) }
    }

    /// The open-trip distance approximation stays within 0.1 % of the geodesic.
    @Test func stepDistanceIsCloseToTheGeodesic() {
        for (lat, lon, dLat, dLon) in [(47.3, 7.7, 0.0002, 0.0003), (60.0, 10.0, 0.001, -0.002), (-33.9, 151.2, -0.0001, 0.00005), (0.0, 179.9999, 0.0001, -359.9998)] {
            let scale = TripRow.metresPerDegree(at: lat)
            let approx = TripRow.step(lat, lon, lat + dLat, lon + dLon, scale)
            let exact = Geodesy.distance(fromLatitude: lat, longitude: lon, toLatitude: lat + dLat, longitude: lon + dLon)
            #expect(abs(approx - exact) / exact < 0.001, "\(lat),\(lon): \(approx) vs \(exact)")
        }
    }
}
