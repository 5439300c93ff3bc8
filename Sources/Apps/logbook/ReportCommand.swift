// SPDX-License-Identifier: MIT
import ArgumentParser
import Foundation
import LogbookCore
import LogbookPOSIX
import LogbookGarage
import LogbookGarageStore
import LogbookJournal
import LogbookPlaces
import LogbookStore

/// `logbook report --year YYYY [--vehicle ID] --format csv|html [-o FILE]`: the yearly
/// mileage report (Fahrtenbuch / IRS log).
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "The yearly mileage report with classifications, as CSV or printable HTML.")
    @OptionGroup var paths: PathOptions
    @Option(help: "The year (local, [units] time_zone).") var year: Int
    @Option(help: "Only this vehicle's trips.") var vehicle: String?
    @Option(help: "csv or html.") var format = "csv"
    @Option(name: [.customShort("o"), .long], help: "Write to FILE (atomically) instead of standard output.") var output: String?

    func validate() throws {
        guard (1980...2200).contains(year) else { throw ValidationError("--year must be a year such as 2026") }
        guard ["csv", "html"].contains(format) else { throw ValidationError("--format must be csv or html") }
    }

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let report = try Self.make(settings, year: year, vehicle: vehicle)
            let text = format == "html" ? report.html : report.csv
            try OutputFile.save(text, to: output ?? AtomicFile.standardOutput)
        }
    }

    static func make(_ settings: ReaderSettings, year: Int, vehicle: String?) throws -> MileageReport {
        try IndexAccess.withIndex(settings) { index in
            let garage = try GarageAccess.load(index, settings: settings)
            try VehicleFilter.check(vehicle, garage)
            return try GarageStore.report(
                index, garage: garage, year: year, vehicle: vehicle, namer: try PlaceNaming.namer(settings, index),
                journalDirectory: settings.journalDirectory, zone: settings.zone, rates: settings.reimbursement)
        }
    }
}
