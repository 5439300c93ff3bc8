// SPDX-License-Identifier: MIT
// Nearest-place lookups on the real bundle: the grid search against a linear scan of every
// place (the obvious way), same random points, same run. Used by bench/places-bench.sh.
//   logbook-places-bench BUNDLE_DIR [LOOKUPS]
import LogbookCore
import LogbookPlaces

#if canImport(Glibc)
    import Glibc
#endif

let args = CommandLine.arguments
guard args.count >= 2 else {
    print("usage: logbook-places-bench BUNDLE_DIR [LOOKUPS]")
    exit(64)
}
let lookups = args.count > 2 ? Int(args[2]) ?? 100_000 : 100_000
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

let loadStart = now()
let bundle: PlaceBundle
do {
    bundle = try PlaceBundle.load(directory: args[1])
} catch {
    print("places-bench: \(error.description)")
    exit(1)
}
let loadSeconds = now() - loadStart

// Random points over land and sea alike (a fixed generator: the same points every run).
var state: UInt64 = 0x9E37_79B9_7F4A_7C15
func random() -> Double {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Double(state >> 11) / Double(1 << 53)
}
// Half the points in Europe (where cars with this logbook are), half anywhere.
let points: [(Double, Double)] = (0..<lookups).map { i in
    i % 2 == 0 ? (35 + random() * 35, -10 + random() * 40) : (random() * 180 - 90, random() * 360 - 180)
}

var checksum = 0.0
let start = now()
for (lat, lon) in points { checksum += bundle.nearest(latitude: lat, longitude: lon)?.distance ?? 0 }
let gridSeconds = now() - start

let scanLookups = min(200, lookups)
let scanStart = now()
for (lat, lon) in points.prefix(scanLookups) {
    var best = Double.infinity
    for i in 0..<bundle.count {
        let p = bundle.place(at: i)
        best = min(best, Geodesy.distance(fromLatitude: lat, longitude: lon, toLatitude: p.latitude, longitude: p.longitude))
    }
    checksum += best
}
let scanSeconds = now() - scanStart

let perLookup = gridSeconds / Double(lookups) * 1e6
let perScan = scanSeconds / Double(scanLookups) * 1e6
print("places-bench: bundle: \(bundle.count) places, \(bundle.manifest.bytes) bytes, loaded and verified in \(Int(loadSeconds * 1000)) ms")
print("places-bench: lookup: \(String(Int(perLookup * 10)).dropLast()).\(Int(perLookup * 10) % 10) µs per lookup (\(lookups) random points)")
print("places-bench: linear scan: \(Int(perScan)) µs per lookup (\(scanLookups) points); grid is \(Int(perScan / perLookup))x faster")
if checksum.isNaN { print("checksum NaN") }
