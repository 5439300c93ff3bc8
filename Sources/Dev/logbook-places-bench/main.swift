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
var generator = SplitMix64(seed: 0x9E37_79B9_7F4A_7C15)
// Half the points in Europe (where cars with this logbook are), half anywhere.
var points: [(Double, Double)] = []
for i in 0..<lookups {
    let a = generator.unit(), b = generator.unit()
    points.append(i % 2 == 0 ? (35 + a * 35, -10 + b * 40) : (a * 180 - 90, b * 360 - 180))
}

var checksum = 0.0
var europeSeconds = 0.0, worldSeconds = 0.0
for (i, (lat, lon)) in points.enumerated() {
    let t = now()
    checksum += bundle.nearest(latitude: lat, longitude: lon)?.distance ?? 0
    if i % 2 == 0 { europeSeconds += now() - t } else { worldSeconds += now() - t }
}
// As the logbook names a place: nothing farther than 25 km (PlaceNamer).
var namedSeconds = 0.0
for (lat, lon) in points.suffix(lookups / 2) {
    let t = now()
    checksum += bundle.nearest(latitude: lat, longitude: lon, within: 25_000)?.distance ?? 0
    namedSeconds += now() - t
}
let gridSeconds = europeSeconds + worldSeconds

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
func micro(_ seconds: Double, _ n: Int) -> String { NumberText.fixed(seconds / Double(n) * 1e6, places: 1) }
print("places-bench: lookup: \(micro(europeSeconds, (lookups + 1) / 2)) µs per lookup in Europe (land and sea), \(micro(worldSeconds, lookups / 2)) µs anywhere on Earth (mostly ocean), \(micro(gridSeconds, lookups)) µs overall (\(lookups) random points)")
print("places-bench: lookup within 25 km (as trips are named): \(micro(namedSeconds, lookups / 2)) µs per lookup anywhere on Earth")
print("places-bench: linear scan: \(Int(perScan)) µs per lookup (\(scanLookups) points); grid is \(Int(perScan / perLookup))x faster")
if checksum.isNaN { print("checksum NaN") }
