// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookExport

/// The picture options of `logbook trips show ID --svg FILE --html FILE`: the trip drawn from
/// the catalog and written atomically, with local times and the chosen units.
enum TripPictureFiles {
    /// Writes the SVG and/or the HTML page of `trip`, its ends named as `trips show` names
    /// them (the caller passes the trip through ``PlaceNaming``), its points from the catalog.
    ///
    /// - Throws: ``CLIError/problem(_:)`` when a file cannot be written.
    static func write(
        trip: TripOverview, catalog: some TripCatalog, svg: String?, html: String?, units: UnitSystem, vehicleName: String? = nil
    ) throws {
        guard svg != nil || html != nil else { return }
        let id = trip.id
        let start = trip.startedAt ?? GPSTime(nanoseconds: 0)
        let options = TripPictureOptions(
            units: units, utcOffset: LocalZone.offset(start), timeZoneName: LocalZone.name(start), vehicleName: vehicleName)
        let picture = TripPicture(trip: trip, points: try catalog.points(of: id), gaps: try catalog.gaps(of: id), options: options)
        if let svg { try save(picture.svg(), to: svg) }
        if let html { try save(picture.html(), to: html) }
    }

    private static func save(_ text: String, to path: String) throws {
        try OutputFile.save(text, to: path)
    }
}
