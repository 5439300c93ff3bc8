// SPDX-License-Identifier: MIT
internal import LogbookGarage

/// The Dashboard's economy trend as inline SVG: one point per bucket (L/100 km, or US mpg
/// when imperial), a line through them, the range's low and high on the axis. Presentation
/// attributes only (the content security policy allows no inline style), no script.
struct EconomyChart {
    var points: [GarageStats.TrendPoint]
    var imperial: Bool

    static let width = 640.0, height = 220.0
    static let left = 52.0, right = 12.0, top = 14.0, bottom = 34.0

    func value(_ p: GarageStats.TrendPoint) -> Double {
        imperial ? FuelEconomy.mpgUS(litresPer100km: p.litresPer100km) : p.litresPer100km
    }

    var unit: String { imperial ? "mpg" : "L/100 km" }

    func svg() -> String {
        let values = points.map(value)
        guard let low = values.min(), let high = values.max() else { return "" }
        // A flat series gets a band around it, so the line sits mid-height.
        let pad = high > low ? (high - low) * 0.15 : max(0.5, high * 0.1)
        let lo = max(0, low - pad), hi = high + pad
        let plotW = Self.width - Self.left - Self.right, plotH = Self.height - Self.top - Self.bottom
        func x(_ i: Int) -> Double { points.count == 1 ? Self.left + plotW / 2 : Self.left + plotW * Double(i) / Double(points.count - 1) }
        func y(_ v: Double) -> Double { Self.top + plotH * (1 - (v - lo) / (hi - lo)) }
        var out = """
            <svg id="economy-chart" class="chart" viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" role="img" \
            aria-label="Fuel economy by bucket, \(unit)" xmlns="http://www.w3.org/2000/svg">
            <rect x="0" y="0" width="\(Int(Self.width))" height="\(Int(Self.height))" rx="10" fill="#0d1117"/>

            """
        for v in [lo, (lo + hi) / 2, hi] {
            let yy = Self.n(y(v))
            out += "<line x1=\"\(Self.n(Self.left))\" y1=\"\(yy)\" x2=\"\(Self.n(Self.width - Self.right))\" y2=\"\(yy)\" stroke=\"#30363d\" stroke-width=\"1\"/>"
            out += "<text x=\"\(Self.n(Self.left - 6))\" y=\"\(Self.n(y(v) + 4))\" text-anchor=\"end\" font-size=\"12\" fill=\"#8b949e\">"
            out += Format.fixed(v, digits: 1) + "</text>\n"
        }
        var path = ""
        for (i, v) in values.enumerated() { path += (i == 0 ? "M" : " L") + Self.n(x(i)) + " " + Self.n(y(v)) }
        if values.count > 1 { out += "<path d=\"\(path)\" fill=\"none\" stroke=\"#58a6ff\" stroke-width=\"2.5\" stroke-linejoin=\"round\"/>\n" }
        // At most about eight labels on a 360 px screen.
        let every = max(1, (points.count + 7) / 8)
        for (i, p) in points.enumerated() {
            let title = HTML.escape("\(p.label): \(Format.fixed(values[i], digits: 2)) \(unit) over \(Format.fixed(p.distanceKm, digits: 0)) km")
            out += "<circle class=\"point\" cx=\"\(Self.n(x(i)))\" cy=\"\(Self.n(y(values[i])))\" r=\"4\" fill=\"#58a6ff\"><title>\(title)</title></circle>"
            if i % every == 0 || i == points.count - 1 {
                out += "<text x=\"\(Self.n(x(i)))\" y=\"\(Self.n(Self.height - 12))\" text-anchor=\"\(Self.anchor(i, of: points.count))\" font-size=\"12\" fill=\"#8b949e\">"
                out += HTML.escape(p.label) + "</text>"
            }
            out += "\n"
        }
        out += "<text x=\"\(Self.n(Self.left))\" y=\"10\" font-size=\"11\" fill=\"#8b949e\">\(unit)</text>\n</svg>"
        return out
    }

    /// The first and last axis labels end inside the picture (a centred "2026" at the right
    /// edge was cut to "202"); the others are centred on their point.
    static func anchor(_ i: Int, of count: Int) -> String {
        guard count > 1 else { return "middle" }
        return i == 0 ? "start" : i == count - 1 ? "end" : "middle"
    }

    /// One decimal is sub-pixel at this size.
    static func n(_ v: Double) -> String { Format.fixed(v, digits: 1) }
}
