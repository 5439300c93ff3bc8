// SPDX-License-Identifier: MIT
/// Why a place bundle was refused. The logbook then shows coordinates instead of names.
public enum PlaceBundleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bundle or its manifest is missing or unreadable.
    case unreadable(String)
    /// The manifest is not what this logbook reads.
    case badManifest(String)
    /// The bundle's SHA-256 differs from the manifest's.
    case checksumMismatch(expected: String, found: String)
    /// The bundle's content breaks a rule (coordinates, ids, names, country codes, layout).
    case invalid(String)

    public var description: String {
        switch self {
        case .unreadable(let why): "place bundle: \(why)"
        case .badManifest(let why): "place bundle manifest: \(why)"
        case .checksumMismatch(let expected, let found): "place bundle: SHA-256 is \(found), the manifest says \(expected)"
        case .invalid(let why): "place bundle: \(why)"
        }
    }
}
