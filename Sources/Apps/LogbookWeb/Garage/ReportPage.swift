// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookGarage

/// The Report: the yearly mileage report's totals by class and month on the page, the
/// printable A4 report (`/report/print`, the same document as `logbook report --format html`)
/// and its CSV (sealed with the journal's chain head).
struct ReportPage {
    var report: MileageReport
    var vehicles: [GarageVehicle]
    var format: Format

    func render() -> String {
        let year = String(report.year)
        var options = "<option value=\"\">All vehicles</option>"
        for v in vehicles {
            let selected = report.vehicle == v.id ? " selected" : ""
            options += "<option value=\"\(HTML.escape(v.id))\"\(selected)>\(HTML.escape(v.name))</option>"
        }
        var query = "year=\(year)"
        if let v = report.vehicle { query += "&vehicle=" + AuthMiddleware.queryEscaped(v) }
        let unclassified = report.rows.filter { $0.classification == nil }.count
        var hint = ""
        if unclassified > 0 {
            hint = "<p class=\"muted small\">\(unclassified) trips are not classified yet: open a trip to mark it business, private or commute.</p>"
        }
        return """
            <section class="card">
            <h1>Mileage report \(year)</h1>
            <form method="get" action="/report" class="filters">
            <div><label for="report-year">Year</label><input id="report-year" name="year" inputmode="numeric" value="\(year)"></div>
            <div><label for="report-vehicle">Vehicle</label><select id="report-vehicle" name="vehicle">\(options)</select></div>
            <button type="submit" class="wide">Show</button>
            </form>
            </section>
            <section class="card">
            <h2>\(report.rows.count == 1 ? "1 trip" : "\(report.rows.count) trips")</h2>
            \(totals)
            \(hint)
            <div class="buttons"><a id="report-print" href="/report/print?\(HTML.escape(query))">Printable (A4)</a>\
            <a id="report-csv" href="/api/report?\(HTML.escape(query))&amp;format=csv" download>CSV</a></div>
            </section>
            \(monthTable)
            """
    }

    private func km(_ value: Double?) -> String { HTML.escape(format.distanceText((value ?? 0) * 1000)) }

    private var totals: String {
        var cells = ""
        for c in MileageReport.classes {
            cells += "<div><dt>\(HTML.escape(c))</dt><dd id=\"total-\(c)\">\(km(report.totals[c]))</dd></div>"
        }
        // What `[[reimbursement]]` rates pay, per currency (the print page lists them per class).
        var money: [String: Double] = [:]
        for perCurrency in report.reimbursementTotals.values { for (cur, amount) in perCurrency { money[cur, default: 0] += amount } }
        for (cur, amount) in money.sorted(by: { $0.key < $1.key }) {
            cells += "<div><dt>reimbursement</dt><dd class=\"reimbursement\">\(HTML.escape(NumberText.fixed(amount, places: 2) + " " + cur))</dd></div>"
        }
        return "<dl class=\"stats\" id=\"report-totals\">\(cells)</dl>"
    }

    private var monthTable: String {
        guard !report.months.isEmpty else { return "" }
        let unit = format.imperial ? "mi" : "km"
        var head = "<th>Month (\(unit))</th>"
        for c in MileageReport.classes { head += "<th class=\"num\">\(HTML.escape(c))</th>" }
        var rows = ""
        for month in report.months.keys.sorted() {
            rows += "<tr><td>\(HTML.escape(month)) <span class=\"narrow-only muted small\">(\(unit))</span></td>"
            for c in MileageReport.classes {
                rows += "<td class=\"num\" data-label=\"\(HTML.escape(c))\">\(HTML.escape(format.distance((report.months[month]?[c] ?? 0) * 1000).value))</td>"
            }
            rows += "</tr>\n"
        }
        return """
            <section class="card scroll">
            <h2>By month</h2>
            <table id="report-months" class="cards"><thead><tr>\(head)</tr></thead><tbody>
            \(rows)</tbody></table>
            </section>
            """
    }
}

extension WebApp {
    func addReportPage(to router: Router<WebContext>) {
        router.get("/report") { request, context -> Response in
            let (report, vehicles) = try await mileageReport(request.uri.queryParameters)
            let page = ReportPage(report: report, vehicles: vehicles, format: Format(imperial: configuration.imperialUnits))
            return self.page("Report", active: "/report", context: context, body: page.render())
        }
        router.get("/report/print") { request, _ -> Response in
            Self.printable(try await mileageReport(request.uri.queryParameters).0)
        }
    }
}
