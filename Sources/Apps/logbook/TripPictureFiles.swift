// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookExport

/// The picture options of `logbook trips show ID --svg FILE --html FILE`: the trip drawn from
/// the catalog and written atomically, with local times and the chosen units.
enum TripPictureFiles {
    /// Writes the SVG and/or the HTML page of trip `trip`.
    ///
    /// - Throws: ``CLIError/problem(_:)`` when there is no such trip or a file cannot be written.
    static func write(
        trip id: TripID, catalog: some TripCatalog, svg: String?, html: String?, units: UnitSystem, vehicleName: String? = nil
    ) throws {
        guard svg != nil || html != nil else { return }
        guard let trip = try catalog.trip(id) else { throw CLIError.problem("no trip \(id)") }
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
