// SPDX-License-Identifier: MIT
/// A car the logbook records trips for (`[[vehicle]]` in the config).
public struct Vehicle: Sendable, Hashable, Codable {
    /// Short stable id used in config, CLI and records, e.g. `golf`.
    public var id: String
    public var name: String
    public var make: String?
    public var model: String?
    public var year: Int?
    public var registration: String?

    public init(
        id: String, name: String, make: String? = nil, model: String? = nil, year: Int? = nil,
        registration: String? = nil
    ) {
        self.id = id
        self.name = name
        self.make = make
        self.model = model
        self.year = year
        self.registration = registration
    }
}

/// A trip's number: assigned by the journal, increasing, shown to people ("trip 12").
public struct TripID: RawRepresentable, Sendable, Hashable, Comparable, Codable,
    CustomStringConvertible
{
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public init(_ value: UInt64) { self.rawValue = value }
    public static func < (a: TripID, b: TripID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}
