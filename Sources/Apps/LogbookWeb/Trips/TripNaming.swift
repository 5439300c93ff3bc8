// SPDX-License-Identifier: MIT
package import LogbookCore
internal import LogbookGarageStore
package import LogbookPlaces
internal import LogbookRecords
internal import LogbookSettings
package import LogbookStore

/// Place names for trips, as `logbook` names them (``PlaceNamer``: a named place, else a
/// privacy zone at its edge, else "near TOWN" from the offline bundle): the one namer of
/// every web page and the API. Used on the trip shelf's thread (the bundle loads there).
package struct TripNaming: Sendable {
    package var places: PlaceBundleCache
    package var privacyZones: [PrivacyZone]

    /// The namer over the index's named places now.
    package func namer(_ index: TripIndex) throws -> PlaceNamer {
        PlaceNamer(namedPlaces: Array(try GarageStore.namedPlaces(index).values), privacyZones: privacyZones, bundle: places.bundle())
    }
}

extension WebApp {
    /// The namer's inputs with the configuration in effect.
    var naming: TripNaming { TripNaming(places: places, privacyZones: configuration.settings.trip.privacyZones) }
}
