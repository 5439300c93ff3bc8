// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookGarage
import LogbookRecords
import Testing

/// The report as a logbook: local times in the configured zone, registration and driver per
/// trip, dated per-km rates applied on each trip's local date, and the CSV and the HTML (the
/// print page) carrying the same rows.
@Suite struct ReportLogbookTests {
    static let berlin: TimeZoneRules = {
        let bytes = FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Berlin") ?? Data()
        return TimeZoneRules(name: "Europe/Berlin", tzif: [UInt8](bytes)) ?? .utc
    }()

    static func trip(_ id: UInt64, _ start: String, km: Double, driver: String? = nil) throws -> TripOverview {
        let s = try #require(ISO8601.parse(start))
        var t = TripOverview(
            id: TripID(id), vehicleID: "golf", startedAt: s, endedAt: GPSTime(seconds: s.wholeSeconds + 3600), startReason: "power",
            endReason: "power", distance: km * 1000, start: .init(latitude: 48.137154, longitude: 11.576124), end: .init(latitude: 48.1, longitude: 11.5),
            startPlace: "Home, Munich", endPlace: id.isMultiple(of: 2) ? "near Dachau" : nil)
        t.driver = driver
        return t
    }

    static func report() throws -> MileageReport {
        var seq: UInt64 = 500
        var entries = try FixtureGarage.entries()
        for (trip, cls) in [(1, "business"), (2, "business"), (3, "business"), (4, "commute"), (5, "private")] {
            entries.append(try FixtureGarage.entry("trip.classify", [("trip", .number(Double(trip))), ("class", .string(cls))], seq: &seq))
        }
        let trips = [
            try trip(1, "2026-03-10T07:00:00Z", km: 100, driver: "Anna"),  // 08:00 CET, 0.30 → 30.00
            try trip(2, "2026-06-30T22:30:00Z", km: 50),  // 1 July 00:30 CEST locally: the new rate, 0.38 → 19.00
            try trip(3, "2026-09-01T06:00:00Z", km: 200),  // 0.38 → 76.00
            try trip(4, "2026-09-02T06:00:00Z", km: 20),  // commute 0.30 → 6.00
            try trip(5, "2026-09-05T10:00:00Z", km: 30),  // private: no rate
            try trip(6, "2025-12-31T23:30:00Z", km: 10),  // 1 January 00:30 CET: in the local year, no class
        ]
        let jan1 = CivilDate(year: 2026, month: 1, day: 1), jul1 = CivilDate(year: 2026, month: 7, day: 1)
        let rates = [
            ReimbursementRate(tripClass: "business", rate: 0.30, currency: "EUR", from: jan1),
            ReimbursementRate(tripClass: "business", rate: 0.38, currency: "EUR", from: jul1),
            ReimbursementRate(tripClass: "commute", rate: 0.30, currency: "EUR", from: jan1),
        ]
        return MileageReport(
            year: 2026, vehicle: nil, trips: trips, garage: Garage(entries: entries), calibrations: [:],
            seal: .init(sequence: 1, chainHead: [1], checkpointSequence: nil), zone: berlin, rates: rates)
    }

    @Test func ratesChangeMidYearOnTheLocalDateAndTotalsAreAsComputedByHand() throws {
        let report = try Self.report()
        #expect(report.rows.map { $0.reimbursement.map { NumberText.fixed($0, places: 2) } } == ["30.00", "19.00", "76.00", "6.00", nil, nil])
        #expect(report.reimbursementTotals == ["business": ["EUR": 125], "commute": ["EUR": 6]])
        #expect(report.rows.allSatisfy { $0.registration == "M-AB 123" } && report.rows[0].driver == "Anna")
        let csv = report.csv
        #expect(csv.contains("#reimbursement,business,125.00,EUR") && csv.contains("#reimbursement,commute,6.00,EUR") && csv.contains("#time_zone,Europe/Berlin"))
        let html = report.html
        #expect(html.contains("<th>Total</th><th class=\"n\">131.00 EUR</th>") && html.contains("business 0.38 EUR/km from 2026-07-01"))
        #expect(MileageReport.span(of: 2026, zone: Self.berlin).0 == ISO8601.parse("2025-12-31T23:00:00Z"))
    }

    @Test func csvAndHtmlCarryTheSameRows() throws {
        let report = try Self.report()
        let csv = Self.csvRows(report.csv)
        let html = Self.htmlRows(report.html)
        func key(_ r: [String: String], _ names: [String]) -> String { names.map { r[$0] ?? "?" }.joined(separator: "|") }
        let csvKeys = Set(csv.map { r in
            key(r, ["trip", "date", "start_local", "end_local", "vehicle", "registration", "driver", "start_place", "end_place", "distance_km", "class"])
                + "|" + (r["reimbursement"].flatMap { $0.isEmpty ? nil : $0 + " " + (r["currency"] ?? "") } ?? "")
        })
        let htmlKeys = Set(html.map { r in
            key(r, ["Trip", "Date", "Start", "End", "Vehicle", "Registration", "Driver", "From", "To", "km", "Class", "Reimbursement"])
        })
        #expect(csv.count == report.rows.count && html.count == report.rows.count)
        #expect(csvKeys == htmlKeys, "csv only: \(csvKeys.subtracting(htmlKeys)); html only: \(htmlKeys.subtracting(csvKeys))")
        #expect(csvKeys.contains("1|2026-03-10|08:00 CET|09:00 CET|golf|M-AB 123|Anna|Home, Munich|48.10000 11.50000|100.0|business|30.00 EUR"))
        #expect(csvKeys.contains { $0.hasPrefix("2|2026-07-01|00:30 CEST|01:30 CEST|golf|M-AB 123|") && $0.hasSuffix("|near Dachau|50.0|business|19.00 EUR") })
        let total = report.reimbursementTotals.values.reduce(0) { $0 + ($1["EUR"] ?? 0) }
        let periods = Set(report.ratesUsed.map(\.from)).count
        if csvKeys == htmlKeys { print("report: \(report.rows.count) trips, rates from \(periods) periods, total \(NumberText.fixed(total, places: 2)) EUR; csv/html rows equal") }
    }

    /// The CSV's trip rows by column name (RFC 4180 quoting).
    static func csvRows(_ text: String) -> [[String: String]] {
        var records: [[String]] = [], field = "", record: [String] = [], quoted = false
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" { if chars.first == "\"" { field.append("\""); chars.removeFirst() } else { quoted = false } } else { field.append(c) }
            } else if c == "\"" { quoted = true } else if c == "," { record.append(field); field = "" } else if c == "\n" {
                record.append(field)
                records.append(record)
                (record, field) = ([], "")
            } else { field.append(c) }
        }
        guard let header = records.first else { return [] }
        return records.dropFirst().filter { !($0.first ?? "").hasPrefix("#") }.map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// The first table's rows by column title, cell text unescaped.
    static func htmlRows(_ html: String) -> [[String: String]] {
        guard let table = html.split(separator: "</table>").first else { return [] }
        func cells(_ s: Substring, _ tag: String) -> [String] {
            s.components(separatedBy: "<\(tag)>").dropFirst().flatMap { $0.components(separatedBy: "<\(tag) ") }.filter { !$0.isEmpty }.map { part in
                // After `<td>` or `<td class="n">`, up to `</td>`, inner markup stripped.
                let body = part.hasPrefix("class") ? String(part.drop { $0 != ">" }.dropFirst()) : part
                let inner = body.range(of: "</\(tag)>").map { String(body[body.startIndex..<$0.lowerBound]) } ?? body
                let text = inner.replacing(/<[^>]*>/, with: "")
                return text.replacing("&quot;", with: "\"").replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&amp;", with: "&")
            }
        }
        let parts = table.components(separatedBy: "<tbody>")
        let header = cells(Substring(parts[0]), "th")
        return parts.dropFirst().joined().components(separatedBy: "</tr>").dropLast().map { row in
            Dictionary(zip(header, cells(Substring(row), "td")), uniquingKeysWith: { a, _ in a })
        }
    }
}
