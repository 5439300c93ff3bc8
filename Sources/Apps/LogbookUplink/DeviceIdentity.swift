// SPDX-License-Identifier: MIT
internal import Crypto

/// The id every message and row carries with its sequence number: `(device_id, seq)` is what
/// the sinks are idempotent on.
///
/// By default it is derived from the journal's public key (`lb-` + 12 hex digits of its
/// SHA-256): stable across restarts, reinstalls and renamed hosts, and it changes exactly
/// when a new journal (whose sequence numbers start again at 1) begins — so two journals can
/// never collide on `(device_id, seq)`. `[uplink] device_id` overrides it (e.g. `golf-pi`).
public struct DeviceIdentity: Sendable, Hashable {
    /// `[a-z0-9_-]`, 1–64 characters (safe in MQTT topics and HA discovery ids).
    public var id: String
    /// The journal's Ed25519 public key (32 bytes).
    public var publicKey: [UInt8]

    public init(id: String, publicKey: [UInt8]) {
        self.id = id
        self.publicKey = publicKey
    }

    /// `lb-` + the first 12 hex digits of SHA-256(public key).
    public static func derivedID(publicKey: [UInt8]) -> String {
        "lb-" + String(Hex.encode(Array(SHA256.hash(data: publicKey))).prefix(12))
    }

    /// Whether `id` is acceptable as a configured device id.
    public static func isValid(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64 && id.utf8.allSatisfy { c in
            (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
                || c == UInt8(ascii: "-") || c == UInt8(ascii: "_")
        }
    }
}
