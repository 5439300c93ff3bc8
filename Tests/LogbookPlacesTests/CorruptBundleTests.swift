// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookPOSIX
import LogbookSodium
import LogbookTestSupport
import Testing

@testable import LogbookPlaces

/// A damaged bundle is refused with a clear reason, never half-trusted.
@Suite(.serialized) struct CorruptBundleTests {
    /// A copy of a small real bundle (three countries) to damage.
    func copy() throws -> (TemporaryDirectory, [UInt8], String) {
        try WorldBundle.built.get()
        let dir = try TemporaryDirectory("places-bad")
        try WorldBundle.runBuild(["--out", dir.path, "--countries", "CH,LI", "--wheel", WorldBundle.wheel])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.file("places.bin"))))
        let manifest = try String(contentsOfFile: dir.file("places.manifest.json"), encoding: .utf8)
        return (dir, bytes, manifest)
    }

    func write(_ bytes: [UInt8], _ manifest: String, to dir: TemporaryDirectory) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: dir.file("places.bin")))
        try manifest.write(toFile: dir.file("places.manifest.json"), atomically: true, encoding: .utf8)
    }

    func refusal(_ dir: TemporaryDirectory) -> PlaceBundleError? {
        do {
            _ = try PlaceBundle.load(directory: dir.path)
            return nil
        } catch {
            return error
        }
    }

    /// The manifest's text with `sha256` (and optionally `bytes`) set to match `bytes`.
    func resealed(_ manifest: String, _ bytes: [UInt8]) -> String {
        var m = manifest
        let old = try? PlaceBundleManifest(parsing: manifest)
        m = m.replacingOccurrences(of: old?.sha256 ?? "", with: Hex.encode(SHA256Hasher.hash(bytes)))
        return m.replacingOccurrences(of: "\"bytes\": \(old?.bytes ?? 0)", with: "\"bytes\": \(bytes.count)")
    }

    @Test func theUndamagedCopyLoads() throws {
        let (dir, _, _) = try copy()
        defer { dir.remove() }
        #expect(refusal(dir) == nil)
    }

    @Test func aFlippedByteFailsTheChecksum() throws {
        let (dir, bytes, manifest) = try copy()
        defer { dir.remove() }
        var bad = bytes
        bad[bad.count / 2] ^= 0x20
        try write(bad, manifest, to: dir)
        guard case .checksumMismatch? = refusal(dir) else { Issue.record("expected a checksum mismatch, got \(String(describing: refusal(dir)))"); return }
    }

    @Test func aWrongRowCountInTheManifestIsRefused() throws {
        let (dir, bytes, manifest) = try copy()
        defer { dir.remove() }
        let rows = try PlaceBundleManifest(parsing: manifest).rows
        try write(bytes, manifest.replacingOccurrences(of: "\"rows\": \(rows)", with: "\"rows\": \(rows + 1)"), to: dir)
        #expect(refusal(dir) == .invalid("\(rows) rows, the manifest says \(rows + 1)"))
    }

    @Test(arguments: ["not json", "{}", "{\"format\":\"logbook-places\",\"format_version\":1}"])
    func aBadManifestIsRefused(_ text: String) throws {
        let (dir, bytes, _) = try copy()
        defer { dir.remove() }
        try write(bytes, text, to: dir)
        guard case .badManifest? = refusal(dir) else { Issue.record("expected a manifest error"); return }
    }

    /// Damage that a re-computed checksum would hide is still caught by the row checks.
    @Test func resealedDamageIsCaughtByTheRowChecks() throws {
        let (dir, bytes, manifest) = try copy()
        defer { dir.remove() }
        let layout = try bytes.withUnsafeBytes { try PlaceBundleLayout.read($0) }
        let row = layout.rowsOffset + 3 * PlaceBundleLayout.rowSize
        // Latitude 95°.
        var bad = bytes
        withUnsafeBytes(of: Int32(95_000_000).littleEndian) { for (i, b) in $0.enumerated() { bad[row + i] = b } }
        try write(bad, resealed(manifest, bad), to: dir)
        #expect(refusal(dir)?.description.contains("coordinates out of range") == true)
        // Country code "ZZ".
        bad = bytes
        bad[row + 21] = 90
        bad[row + 22] = 90
        try write(bad, resealed(manifest, bad), to: dir)
        #expect(refusal(dir)?.description.contains("invalid country code") == true)
        // The id of row 4 copied into row 3.
        bad = bytes
        for i in 0..<4 { bad[row + 8 + i] = bad[row + PlaceBundleLayout.rowSize + 8 + i] }
        try write(bad, resealed(manifest, bad), to: dir)
        #expect(refusal(dir)?.description.contains("duplicate place id") == true)
        // An empty name.
        bad = bytes
        bad[row + 20] = 0
        try write(bad, resealed(manifest, bad), to: dir)
        #expect(refusal(dir)?.description.contains("empty or invalid name") == true)
        // Cut short.
        bad = Array(bytes.dropLast(10))
        try write(bad, resealed(manifest, bad), to: dir)
        #expect(refusal(dir)?.description.contains("section offsets") == true)
    }

    @Test func aMissingBundleSaysSo() throws {
        let dir = try TemporaryDirectory("places-none")
        defer { dir.remove() }
        guard case .unreadable? = refusal(dir) else { Issue.record("expected unreadable"); return }
    }
}
