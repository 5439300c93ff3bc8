// SPDX-License-Identifier: MIT
/// A circle the car can arrive at or leave: a named place (`place` entries) or a privacy zone.
public struct TrackedPlace: Sendable, Hashable {
    /// What names it in the journal (`place:ID`): a place's subject, a privacy zone's name.
    public var id: String
    /// What is shown (`at home since 18:02`, Home Assistant): the place's name, else its id.
    public var name: String
    public var circle: GeoCircle
    /// A privacy zone: its events carry no position anywhere.
    public var isPrivacyZone: Bool

    public init(id: String, name: String? = nil, circle: GeoCircle, isPrivacyZone: Bool = false) {
        self.id = id
        self.name = name ?? id
        self.circle = circle
        self.isPrivacyZone = isPrivacyZone
    }
}

/// An arrival at or a departure from a ``TrackedPlace``, dated by the fix that decided it.
public struct PlaceEvent: Sendable, Equatable {
    public enum Kind: String, Sendable { case enter, leave }
    public var kind: Kind
    public var place: TrackedPlace
    public var time: GPSTime

    public init(kind: Kind, place: TrackedPlace, time: GPSTime) {
        self.kind = kind
        self.place = place
        self.time = time
    }
}

/// Decides arrivals and departures from the fixes the daemon accepts, one state per place:
/// **enter** once ``enterFixes`` consecutive fixes were inside the radius (or the fixes inside
/// span ``enterSeconds``), **leave** only at a fix beyond the radius plus ``hysteresis``. So a
/// car parked at the edge, whose fixes jitter across the radius, makes no event storm: a fix
/// outside resets a pending arrival, and once inside only a real departure counts.
///
/// Where the first fix (after the daemon started) already is inside a place, the car was there
/// before: the place becomes the current one without an event (no arrival, no hook), as Home
/// Assistant's zones start.
///
/// Pure: no clock but the fixes' own times, no I/O.
public struct PlaceTracker: Sendable {
    /// Metres beyond the radius a fix must be for a departure.
    public var hysteresis: Double
    public let enterFixes: Int
    public let enterSeconds: Double

    private enum State: Sendable, Equatable {
        /// Fixes inside in a row, since the first of them.
        case arriving(count: Int, since: GPSTime)
        case inside(since: GPSTime)
    }

    private(set) public var places: [TrackedPlace] = []
    private var states: [String: State] = [:]
    /// Places entered, in order of arrival (the last is the current one).
    private var entered: [String] = []
    /// The first fix fed: arrivals that began with it are not events.
    private var firstFix: GPSTime?

    public init(hysteresis: Double = 50, enterFixes: Int = 2, enterSeconds: Double = 10) {
        self.hysteresis = hysteresis
        self.enterFixes = enterFixes
        self.enterSeconds = enterSeconds
    }

    /// The place the car is at (the last one entered of those it is inside) and since when.
    public var current: (place: TrackedPlace, since: GPSTime)? {
        for id in entered.reversed() {
            if case .inside(let since)? = states[id], let p = places.first(where: { $0.id == id }) { return (p, since) }
        }
        return nil
    }

    /// Replaces the set of places (one added, moved, renamed or removed while running). A place
    /// the car is inside stays entered; one moved away is left at the next fix beyond its new
    /// circle, one removed is left at the next fix (so every arrival has its departure).
    public mutating func setPlaces(_ new: [TrackedPlace]) {
        let ids = Set(new.map(\.id))
        var kept = new
        // A removed place the car is inside stays (as it was) until the next fix leaves it.
        for p in places where !ids.contains(p.id) {
            if case .inside? = states[p.id] { kept.append(TrackedPlace(id: p.id, name: p.name, circle: p.circle, isPrivacyZone: p.isPrivacyZone)) }
        }
        removed = Set(kept.map(\.id)).subtracting(ids)
        places = kept
        states = states.filter { id, _ in kept.contains { $0.id == id } }
        entered.removeAll { states[$0] == nil }
    }

    /// Places to leave at the next fix: removed while the car was inside.
    private var removed: Set<String> = []

    /// Feeds one accepted fix; returns the departures, then the arrivals, it decided.
    public mutating func accept(latitude: Double, longitude: Double, time: GPSTime) -> [PlaceEvent] {
        var leaves: [PlaceEvent] = []
        var enters: [PlaceEvent] = []
        if firstFix == nil { firstFix = time }
        func enter(_ place: TrackedPlace, arrivingSince: GPSTime) {
            states[place.id] = .inside(since: time)
            entered.append(place.id)
            if arrivingSince != firstFix { enters.append(PlaceEvent(kind: .enter, place: place, time: time)) }
        }
        for place in places {
            let d = place.circle.distance(latitude: latitude, longitude: longitude)
            let isInside = d <= place.circle.radius
            switch states[place.id] {
            case .inside?:
                if removed.contains(place.id) || d > place.circle.radius + hysteresis {
                    states[place.id] = nil
                    entered.removeAll { $0 == place.id }
                    leaves.append(PlaceEvent(kind: .leave, place: place, time: time))
                }
            case .arriving(let count, let since)?:
                guard isInside else {
                    states[place.id] = nil
                    continue
                }
                if count + 1 >= enterFixes || time.seconds(since: since) >= enterSeconds {
                    enter(place, arrivingSince: since)
                } else {
                    states[place.id] = .arriving(count: count + 1, since: since)
                }
            case nil:
                guard isInside, !removed.contains(place.id) else { continue }
                if enterFixes <= 1 {
                    enter(place, arrivingSince: time)
                } else {
                    states[place.id] = .arriving(count: 1, since: time)
                }
            }
        }
        if !removed.isEmpty {
            places.removeAll { removed.contains($0.id) }
            removed = []
        }
        return leaves + enters
    }
}

