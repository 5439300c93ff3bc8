// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookGarage

/// The Dashboard's price per litre trend as inline SVG (the seed's fuel price tracking): one
/// point per fill-up of the main currency (the one with the most fill-ups), a line through
/// them, low and high on the axis; other currencies are summed up in words below, never mixed.
struct PriceChart {
    var series: [PriceTrend.Series]
    /// The unit the prices are per (`L`, or `gal` with the points scaled by ``init(series:units:)``).
    var unit = "L"

    /// The series priced per litre, or per US gallon with `imperial` units.
    init(series: [PriceTrend.Series], units: UnitSystem = .metric) {
        self.series = series.map { s in
            var s = s
            for i in s.points.indices { s.points[i].perLitre = units.perVolume(s.points[i].perLitre) }
            return s
        }
        unit = units.volumeUnit
    }

    static let width = 640.0, height = 200.0
    static let left = 52.0, right = 12.0, top = 14.0, bottom = 30.0

    func html() -> String {
        guard let main = series.first, !main.points.isEmpty else {
            return "<p class=\"muted\" id=\"price-trend\">No fill-ups in this range yet.</p>"
        }
        var out = svg(main)
        var words: [String] = []
        for s in series {
            let change = (s.change >= 0 ? "+" : "") + Format.fixed(s.change * 100, digits: 1) + " %"
            words.append("\(s.currency): \(Format.fixed(s.points.last?.perLitre ?? 0, digits: 3)) per \(unit == "L" ? "litre" : "gallon") last, "
                + "\(Format.fixed(s.low, digits: 3))–\(Format.fixed(s.high, digits: 3)), \(change) over \(s.points.count) fill-ups")
        }
        out += "<p class=\"muted small\" id=\"price-trend\">\(HTML.escape(words.joined(separator: " · ")))</p>"
        return out
    }

    private func svg(_ s: PriceTrend.Series) -> String {
        let pad = s.high > s.low ? (s.high - s.low) * 0.15 : max(0.05, s.high * 0.05)
        let lo = max(0, s.low - pad), hi = s.high + pad
        let plotW = Self.width - Self.left - Self.right, plotH = Self.height - Self.top - Self.bottom
        let t0 = s.points.first?.at ?? GPSTime(seconds: 0)
        let span = max(s.points.last.map { $0.at.seconds(since: t0) } ?? 0, 1)
        func x(_ p: PriceTrend.Point) -> Double { s.points.count == 1 ? Self.left + plotW / 2 : Self.left + plotW * p.at.seconds(since: t0) / span }
        func y(_ v: Double) -> Double { Self.top + plotH * (1 - (v - lo) / (hi - lo)) }
        var out = """
            <svg id="price-chart" class="chart" viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" role="img" \
            aria-label="Price per \(unit == "L" ? "litre" : "gallon"), \(HTML.escape(s.currency))" xmlns="http://www.w3.org/2000/svg">
            <rect x="0" y="0" width="\(Int(Self.width))" height="\(Int(Self.height))" rx="10" fill="#0d1117"/>

            """
        for v in [lo, (lo + hi) / 2, hi] {
            out += "<line x1=\"\(EconomyChart.n(Self.left))\" y1=\"\(EconomyChart.n(y(v)))\" x2=\"\(EconomyChart.n(Self.width - Self.right))\" "
                + "y2=\"\(EconomyChart.n(y(v)))\" stroke=\"#30363d\" stroke-width=\"1\"/>"
            out += "<text x=\"\(EconomyChart.n(Self.left - 6))\" y=\"\(EconomyChart.n(y(v) + 4))\" text-anchor=\"end\" font-size=\"12\" fill=\"#8b949e\">"
                + Format.fixed(v, digits: 2) + "</text>\n"
        }
        let path = s.points.enumerated().map { (i, p) in (i == 0 ? "M" : "L") + EconomyChart.n(x(p)) + " " + EconomyChart.n(y(p.perLitre)) }
        if s.points.count > 1 {
            out += "<path d=\"\(path.joined(separator: " "))\" fill=\"none\" stroke=\"#d29922\" stroke-width=\"2.5\" stroke-linejoin=\"round\"/>\n"
        }
        for p in s.points {
            let title = HTML.escape("\(LocalTime.zone.date(p.at)): \(Format.fixed(p.perLitre, digits: 3)) \(s.currency)/\(unit)\(p.station.map { " at " + $0 } ?? "")")
            out += "<circle class=\"point\" cx=\"\(EconomyChart.n(x(p)))\" cy=\"\(EconomyChart.n(y(p.perLitre)))\" r=\"4\" fill=\"#d29922\"><title>\(title)</title></circle>\n"
        }
        let ends = s.points.count > 1 ? [s.points.first, s.points.last].compactMap({ $0 }) : s.points
        for (i, p) in ends.enumerated() {
            out += "<text x=\"\(EconomyChart.n(x(p)))\" y=\"\(EconomyChart.n(Self.height - 10))\" text-anchor=\"\(EconomyChart.anchor(i, of: ends.count))\" font-size=\"12\" fill=\"#8b949e\">"
                + HTML.escape(LocalTime.zone.date(p.at)) + "</text>"
        }
        return out + "<text x=\"\(EconomyChart.n(Self.left))\" y=\"10\" font-size=\"11\" fill=\"#8b949e\">\(HTML.escape(s.currency))/\(unit)</text>\n</svg>"
    }
}
