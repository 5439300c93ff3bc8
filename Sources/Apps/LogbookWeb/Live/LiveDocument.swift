// SPDX-License-Identifier: MIT
package import LogbookCore

/// One live-state document (schema 1, as `live.json` has it) with where and when it came.
package struct LiveDocument: Sendable {
    /// Where the bridge got it.
    package enum Origin: String, Sendable {
        /// The control socket's `watch` stream.
        case socket
        /// `live.json`, while the socket is gone.
        case file
    }

    /// The document as the daemon wrote it (one line of JSON).
    package var text: String
    package var json: JSONValue
    package var origin: Origin
    /// Monotonic seconds when the bridge received it.
    package var receivedAt: Double

    package init(text: String, json: JSONValue, origin: Origin, receivedAt: Double) {
        self.text = text
        self.json = json
        self.origin = origin
        self.receivedAt = receivedAt
    }

    /// The document's `seq`.
    package var sequence: Double? { json["seq"]?.doubleValue }
    /// The document's `updated_at`.
    package var updatedAt: String? { json["updated_at"]?.stringValue }
}
