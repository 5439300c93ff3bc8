// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookPOSIX
internal import LogbookRecords

extension MileageReport {
    /// A self-contained page that prints on A4 landscape (no scripts, no external resources).
    public var html: String {
        var out = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <title>Mileage report \(year)\(vehicle.map { " – " + Self.escape($0) } ?? "")</title>
            <style>
            @page { size: A4 landscape; margin: 12mm; }
            body { font: 9pt/1.3 "DejaVu Sans", Helvetica, Arial, sans-serif; color: #111; margin: 0; }
            h1 { font-size: 14pt; margin: 0 0 2mm; }
            p.meta { margin: 0 0 4mm; color: #444; }
            table { border-collapse: collapse; width: 100%; margin-bottom: 5mm; }
            th, td { border: 0.3pt solid #999; padding: 1mm 1.5mm; text-align: left; vertical-align: top; }
            th { background: #e8eef5; }
            td.n { text-align: right; white-space: nowrap; }
            tr { page-break-inside: avoid; }
            thead { display: table-header-group; }
            .business { background: #eef7ee; } .commute { background: #f7f3e8; }
            .changed, .late { color: #a33; } .void td { color: #777; text-decoration: line-through; } .void td.status { text-decoration: none; }
            footer { font-family: "DejaVu Sans Mono", monospace; font-size: 8pt; word-break: break-all; }
            </style></head><body>
            <h1>Mileage report \(year)\(vehicle.map { " – vehicle " + Self.escape($0) } ?? "")</h1>
            <p class="meta">Local times, \(Self.escape(zone.name)) (each time names its zone). \(Self.escape(ratesSummary)) Odometer values marked “≈” are estimates from the nearest reading and the GPS distance since; the others are readings taken then (the OBD adapter's or a person's) (\(Self.escape(odometerSummary))). Distances are GPS kilometres.</p>
            <table><thead><tr><th>Trip</th><th>Date</th><th>Start</th><th>End</th><th>Vehicle</th><th>Registration</th><th>Odometer start</th><th>Odometer end</th><th>From</th><th>To</th><th>km</th><th>Class</th><th>Rate</th><th>Reimbursement</th><th>Purpose</th><th>Partner</th><th>Destination</th><th>Classified</th><th>Driver</th><th>Status</th><th>Origin</th></tr></thead><tbody>

            """
        for r in rows {
            let (date, start) = time(r.trip.startedAt)
            let (_, end) = time(r.trip.endedAt)
            let c = r.classification
            let changed = c.map { $0.changed ? "<span class=\"changed\">changed \($0.history.count - 1)×</span> " : "" } ?? ""
            let cells = [
                r.trip.id.description, date, start, end, r.trip.vehicleID ?? "", r.registration ?? "",
            ].map { "<td>\(Self.escape($0))</td>" }.joined()
            out += "<tr class=\"\(r.tripClass)\">\(cells)"
            // "≈" marks an estimate; a true reading (the OBD adapter's, a person's) stands as it is.
            func odometer(_ km: Double?, _ source: OdometerSource?) -> String {
                km.map { (source == .estimate ? "≈ " : "") + Self.km($0) } ?? ""
            }
            out += "<td class=\"n\">\(odometer(r.startOdometer, r.startOdometerSource))</td><td class=\"n\">\(odometer(r.endOdometer, r.endOdometerSource))</td>"
            out += "<td>\(Self.escape(Self.place(r.trip.startPlace, r.trip.start)))</td><td>\(Self.escape(Self.place(r.trip.endPlace, r.trip.end)))</td>"
            out += "<td class=\"n\">\(Self.km(r.km))</td><td>\(r.tripClass)</td><td>\(Self.escape(r.rate?.text ?? ""))</td>"
            out += "<td class=\"n\">\(Self.escape(r.reimbursement.map { Self.money($0) + " " + (r.rate?.currency ?? "") } ?? ""))</td>"
            out += [c?.purpose, c?.partner, c?.destination].map { "<td>\(Self.escape($0 ?? ""))</td>" }.joined()
            out += "<td>\(changed)\(Self.escape(c?.classifiedAt.map { ISO8601.format($0) } ?? ""))\(Self.escape(c.map { " by " + $0.classifiedBy } ?? ""))</td>"
            let status = r.trip.voided ? "void: \(r.trip.voidReason ?? "")" : r.status
            out += "<td>\(Self.escape(r.driver ?? ""))</td><td class=\"status\">\(Self.escape(status))\(r.late ? " <span class=\"late\">late change</span>" : "")</td>"
            out += r.trip.imported ? "<td class=\"imported\">reconstructed (\(Self.escape(r.trip.startReason)))</td></tr>\n" : "<td>recorded</td></tr>\n"
        }
        out += "</tbody></table>\n<table><thead><tr><th>Month</th>"
        out += Self.classes.map { "<th>\($0) km</th>" }.joined() + "</tr></thead><tbody>\n"
        for month in months.keys.sorted() {
            out += "<tr><td>\(month)</td>" + Self.classes.map { "<td class=\"n\">\(Self.km(months[month]?[$0] ?? 0))</td>" }.joined() + "</tr>\n"
        }
        out += "<tr><th>Total</th>" + Self.classes.map { "<th class=\"n\">\(Self.km(totals[$0] ?? 0))</th>" }.joined() + "</tr>\n"
        out += "</tbody></table>\n"
        out += reimbursementTable
        out += changesTable
        out += "<footer>Journal chain head after seq \(seal.sequence): \(Hex.encode(seal.chainHead))<br>"
        out += "Last signed checkpoint: seq \(seal.checkpointSequence.map(String.init) ?? "none"). Check with <code>logbook verify</code>.</footer>\n"
        out += "</body></html>\n"
        return out
    }

    /// Every change made after its trip ended, with how long after; late ones flagged.
    var changesTable: String {
        let all = rows.flatMap { r in r.changes.map { (r.trip.id, $0) } }
        guard !all.isEmpty else { return "<p class=\"meta\">No trip was changed after it ended.</p>\n" }
        var out = "<h2>Changes after the trip</h2>\n<table><thead><tr><th>Trip</th><th>Made</th><th>After the trip</th><th>Change</th><th>By</th></tr></thead><tbody>\n"
        for (trip, c) in all {
            out += "<tr\(c.late ? " class=\"late\"" : "")><td>\(trip)</td><td>\(Self.escape(c.entry.recordedAt.map(ISO8601.format) ?? ""))</td>"
            out += "<td>\(Self.delay(c.after))\(c.late ? " (late)" : "")</td><td>\(Self.escape(c.entry.entry.summary))</td><td>\(Self.escape(c.entry.entry.origin))</td></tr>\n"
        }
        return out + "</tbody></table>\n"
    }

    /// Reimbursement per class and currency, with the grand total per currency.
    var reimbursementTable: String {
        guard !reimbursementTotals.isEmpty else { return "" }
        var out = "<h2>Reimbursement</h2>\n<table><thead><tr><th>Class</th><th>Amount</th></tr></thead><tbody>\n"
        var grand: [String: Double] = [:]
        for name in Self.classes {
            for (currency, amount) in (reimbursementTotals[name] ?? [:]).sorted(by: { $0.key < $1.key }) {
                out += "<tr><td>\(name)</td><td class=\"n\">\(Self.money(amount)) \(Self.escape(currency))</td></tr>\n"
                grand[currency, default: 0] += amount
            }
        }
        for (currency, amount) in grand.sorted(by: { $0.key < $1.key }) {
            out += "<tr><th>Total</th><th class=\"n\">\(Self.money(amount)) \(Self.escape(currency))</th></tr>\n"
        }
        return out + "</tbody></table>\n"
    }

    /// `Rates: business 0.30 EUR/km from 2025-01-01; …` or that none is configured.
    var ratesSummary: String {
        guard !ratesUsed.isEmpty else { return "No reimbursement rate applies ([[reimbursement]] in the config)." }
        return "Rates: " + ratesUsed.map { "\($0.tripClass) \($0.text) from \(Self.day($0.from))" }.joined(separator: "; ") + "."
    }

    var odometerSummary: String {
        let notes = calibrations.keys.sorted().map { "\($0): \(odometerNote($0))" }
        return notes.isEmpty ? "no odometer readings" : notes.joined(separator: "; ")
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
