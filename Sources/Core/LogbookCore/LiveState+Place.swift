// SPDX-License-Identifier: MIT
extension LiveState {
    /// Where the car is: the place it arrived at (an `enter` event) and has not left.
    public struct PlaceBlock: Sendable, Equatable {
        /// The place's id (`place:ID` in the journal) and the name shown.
        public var id: String
        public var name: String
        /// The time of the fix that decided the arrival.
        public var since: GPSTime
        /// A privacy zone (its events carry no position).
        public var privacyZone: Bool

        public init(id: String, name: String, since: GPSTime, privacyZone: Bool) {
            self.id = id
            self.name = name
            self.since = since
            self.privacyZone = privacyZone
        }

        public var json: JSONValue {
            .object([
                ("id", .string(id)), ("name", .string(name)), ("since", .string(since.description)),
                ("privacy_zone", .bool(privacyZone)),
            ])
        }
    }
}
