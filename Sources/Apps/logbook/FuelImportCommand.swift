// SPDX-License-Identifier: MIT
import ArgumentParser
import Foundation
import LogbookControl
import LogbookCore
import LogbookGarage
import LogbookRecords
import LogbookStore

/// `logbook fuel import FILE --format lubelogger|fuelly --vehicle ID --currency CODE
/// [--imperial] [--date-order mdy|dmy|ymd] [--skip-bad]`: all rows or none (unless --skip-bad).
struct FuelImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import fill-ups from a LubeLogger or Fuelly CSV export.")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The CSV file.") var file: String
    @Option(help: "lubelogger or fuelly.") var format: String
    @Option(help: "The vehicle the fill-ups belong to.") var vehicle: String
    @Option(help: "ISO 4217 currency of the prices.") var currency: String
    @Flag(help: "The file's odometer is in miles and volumes in US gallons.") var imperial = false
    @Option(name: .customLong("date-order"), help: "How to read dates like 03/04/2024: mdy, dmy or ymd (default: the one order every row fits).") var dateOrder: String?
    @Flag(name: .customLong("skip-bad"), help: "Import the good rows and report the bad ones (else nothing is written).") var skipBad = false

    func validate() throws {
        guard FuelImport.Format(rawValue: format) != nil else { throw ValidationError("--format must be lubelogger or fuelly") }
        if let dateOrder, FuelImport.DateOrder(rawValue: dateOrder) == nil { throw ValidationError("--date-order must be mdy, dmy or ymd") }
    }

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            guard let data = FileManager.default.contents(atPath: file) else { throw CLIError.usage("cannot read \(file)") }
            let options = FuelImport.Options(
                vehicle: vehicle, currency: currency, imperial: imperial, dateOrder: dateOrder.flatMap(FuelImport.DateOrder.init(rawValue:)))
            let parsed: FuelImport
            do throws(EntryProblem) {
                parsed = try FuelImport(text: String(decoding: data, as: UTF8.self), format: FuelImport.Format(rawValue: format) ?? .lubelogger, options: options)
            } catch {
                throw CLIError.usage("\(file): \(error.message)")
            }
            var problems = parsed.problems
            var good: [(RecordEntry, [(String, JSONValue)])] = []
            let now = GarageAccess.wallClock()
            let command = EntryCommand.named("fuel.add")
            // Checked in date order against the garage as it will be, so rows see each other.
            var garage = try IndexAccess.withIndex(settings) { try GarageAccess.load($0, settings: settings) }
            var sequence: UInt64 = .max / 2
            for row in parsed.rows.sorted(by: { ($0.fields.first { $0.0 == "at" }?.1.stringValue ?? "") < ($1.fields.first { $0.0 == "at" }?.1.stringValue ?? "") }) {
                let request = [("cmd", JSONValue.string("fuel.add"))] + row.fields + [("origin", .string("import"))]
                do throws(EntryProblem) {
                    guard let command else { throw EntryProblem.init("bad_request", "no fuel.add") }
                    let entry = try command.draft(.object(request), now: now)
                    try garage.check(entry)
                    sequence += 1
                    garage.apply(RecordedEntry(sequence: sequence, entry: entry, recordedAt: now))
                    good.append((entry, request))
                } catch {
                    problems.append((row.line, error.message))
                }
            }
            for p in problems.sorted(by: { $0.line < $1.line }) { FileHandle.standardError.write(Data("logbook: \(file):\(p.line): \(p.message)\n".utf8)) }
            if !problems.isEmpty, !skipBad {
                throw CLIError.usage("\(problems.count) bad row\(problems.count == 1 ? "" : "s"); nothing imported (--skip-bad imports the good ones)")
            }
            let (count, daemon) = try await GarageAccess.writeMany(good, settings: settings)
            print("Imported \(count) fill-up\(count == 1 ? "" : "s") for \(vehicle)\(problems.isEmpty ? "" : ", skipped \(problems.count) bad row\(problems.count == 1 ? "" : "s")") (\(daemon ? "through logbookd" : "written to the journal; logbookd is not running")).")
        }
    }
}
