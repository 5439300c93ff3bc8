// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookJournal
internal import LogbookSettings
internal import Logging

/// Carries out the ``PlaceTracker``'s arrivals and departures: a `place:ID` signal record (on
/// for enter, off for leave, the deciding fix's GPS time; no position, so a privacy zone's
/// event gives none away), the `on_place_enter` / `on_place_leave` hook and a log line.
///
/// Fed every fix the trip engine accepted, in the pipeline task. The places are re-read from
/// the registry when it changed (a place added, moved or removed through the control socket)
/// and the privacy zones when a reload changed them.
struct PlaceRecorder {
    private(set) var tracker: PlaceTracker
    private let registry: PlaceRegistry
    private var seenVersion: UInt64?
    private var zones: [PrivacyZone]
    private let logger: Logger

    init(registry: PlaceRegistry, configuration: Settings, logger: Logger) {
        self.registry = registry
        self.logger = logger
        tracker = PlaceTracker(hysteresis: configuration.placeHysteresis)
        zones = configuration.trip.privacyZones
    }

    /// A reload: new hysteresis and privacy zones (applied from the next fix).
    mutating func reconfigure(_ new: Settings) {
        tracker.hysteresis = new.placeHysteresis
        if new.trip.privacyZones != zones {
            zones = new.trip.privacyZones
            seenVersion = nil
        }
    }

    /// The live state's `place` block.
    var live: LiveState.PlaceBlock? {
        tracker.current.map { LiveState.PlaceBlock(id: $0.place.id, name: $0.place.name, since: $0.since, privacyZone: $0.place.isPrivacyZone) }
    }

    /// Feeds one accepted fix; journals the events and starts their hooks. Returns whether
    /// anything happened (the live state then goes out at once).
    mutating func handle(_ fix: Fix, vehicle: String?, vehicleName: String?, recorder: inout TripRecorder, at now: MonotonicInstant) -> Bool {
        refreshPlaces()
        let events = tracker.accept(latitude: fix.latitude, longitude: fix.longitude, time: fix.time)
        for e in events {
            recorder.append(.signal(SignalEvent(
                source: "place:\(e.place.id)", vehicleID: vehicle, on: e.kind == .enter, gpsTime: e.time,
                monotonicNanoseconds: now.nanoseconds)))
            logger.info(
                e.kind == .enter ? "arrived at a place" : "left a place",
                metadata: ["place": "\(e.place.id)", "time": "\(e.time)", "privacy_zone": "\(e.place.isPrivacyZone)"])
            var env = [
                "LOGBOOK_PLACE": e.place.id, "LOGBOOK_PLACE_NAME": e.place.name, "LOGBOOK_PLACE_EVENT": e.kind.rawValue,
                "LOGBOOK_PLACE_PRIVACY_ZONE": e.place.isPrivacyZone ? "1" : "0", "LOGBOOK_TIME": e.time.description,
                "LOGBOOK_VEHICLE": vehicle ?? "", "LOGBOOK_VEHICLE_NAME": vehicleName ?? vehicle ?? "",
            ]
            // The position only outside privacy zones: a zone's inside is never told.
            if !e.place.isPrivacyZone {
                env["LOGBOOK_LAT"] = String(fix.latitude)
                env["LOGBOOK_LON"] = String(fix.longitude)
            }
            recorder.hooks?.run(event: "place_\(e.kind.rawValue)", environment: env)
        }
        return !events.isEmpty
    }

    /// Named places from the registry, then privacy zones (as `[[privacy_zone]]` lists them).
    private mutating func refreshPlaces() {
        let version = registry.version
        guard version != seenVersion else { return }
        seenVersion = version
        let named = registry.places
        let privacy = zones.map { TrackedPlace(id: $0.name, circle: $0, isPrivacyZone: true) }
        // A zone and a place of the same id would share a journal source: the zone wins.
        let ids = Set(privacy.map(\.id))
        tracker.setPlaces(named.filter { !ids.contains($0.id) } + privacy)
    }
}
