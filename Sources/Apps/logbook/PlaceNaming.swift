// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookGarageStore
import LogbookJournal
import LogbookPlaces
import LogbookSettings
import LogbookStore

/// Place names for the trips a command shows: named places (`place` entries in the index),
/// the configured privacy zones and the offline bundle (`[places] bundle`).
enum PlaceNaming {
    static func namer(_ settings: ReaderSettings, _ index: TripIndex) throws -> PlaceNamer {
        PlaceNamer(
            namedPlaces: Array(try placesByID(index).values), privacyZones: settings.daemon.trip.privacyZones,
            bundle: bundle(settings.reader.placesBundle))
    }

    /// The named places in effect, by id (the entries' subject).
    static func placesByID(_ index: TripIndex) throws -> [String: NamedPlace] { try GarageStore.namedPlaces(index) }

    /// The bundle, or nil: absent is normal (a plain line on stderr only when asked for one
    /// that is not there); refused says why once, and the trips show coordinates.
    static func bundle(_ directory: String) -> PlaceBundle? {
        guard FileManager.default.fileExists(atPath: directory + "/places.manifest.json") else { return nil }
        do {
            return try PlaceBundle.load(directory: directory)
        } catch {
            FileHandle.standardError.write(Data("logbook: place names: \(error.description); showing coordinates\n".utf8))
            return nil
        }
    }
}
