// SPDX-License-Identifier: MIT
import LogbookCore
/// Lines of latitude and longitude at a round step, labelled, as a map's only background.
struct Graticule {
    let projection: MapProjection
    let frame: PictureLayout.Frame

    /// Round steps in degrees, with the decimals their labels need.
    static let steps: [(Double, Int)] = [
        (0.001, 3), (0.002, 3), (0.005, 3), (0.01, 2), (0.02, 2), (0.05, 2), (0.1, 1), (0.2, 1), (0.5, 1),
        (1, 0), (2, 0), (5, 0), (10, 0), (20, 0), (45, 0),
    ]

    /// The smallest round step that draws at most `lines` lines across `span` degrees.
    static func step(span: Double, lines: Double) -> (Double, Int) {
        steps.first { span / $0.0 <= lines } ?? (90, 0)
    }

    func write(_ out: ExportOutput) {
        let north = projection.latitude(atY: frame.y), south = projection.latitude(atY: frame.maxY)
        let west = projection.longitude(atX: frame.x), east = projection.longitude(atX: frame.maxX)
        out.text("<g class=\"lb-grid\">")
        let (latStep, latPlaces) = Self.step(span: north - south, lines: 6)
        var lat = (south / latStep).rounded(.up) * latStep
        var labels: [(Double, Double, String, Bool)] = []
        while lat <= north {
            let y = projection.point(latitude: lat, longitude: projection.longitude0).y
            line(frame.x, y, frame.maxX, y, out)
            labels.append((frame.x + 6, y - 4, NumberText.fixed(abs(lat), places: latPlaces) + (lat >= 0 ? "°N" : "°S"), false))
            lat += latStep
        }
        let (lonStep, lonPlaces) = Self.step(span: east - west, lines: 7)
        var lon = (west / lonStep).rounded(.up) * lonStep
        while lon <= east {
            let x = projection.point(latitude: projection.latitude0, longitude: lon).x
            line(x, frame.y, x, frame.maxY, out)
            // No label where it would be cut off at the right edge.
            if x < frame.maxX - 44 { labels.append((x + 4, frame.maxY - 6, NumberText.fixed(abs(lon), places: lonPlaces) + (lon >= 0 ? "°E" : "°W"), true)) }
            lon += lonStep
        }
        out.text("</g>\n<g class=\"lb-muted\" font-size=\"10\">")
        for (x, y, text, _) in labels {
            out.text("<text x=\"")
            out.decimal(x, places: 1)
            out.text("\" y=\"")
            out.decimal(y, places: 1)
            out.text("\">\(text)</text>")
        }
        out.text("</g>\n")
    }

    private func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ out: ExportOutput) {
        out.text("<line x1=\"")
        out.decimal(x1, places: 1)
        out.text("\" y1=\"")
        out.decimal(y1, places: 1)
        out.text("\" x2=\"")
        out.decimal(x2, places: 1)
        out.text("\" y2=\"")
        out.decimal(y2, places: 1)
        out.text("\"/>")
    }
}

/// A bar of a round length (metres and kilometres, or feet and miles), at most 150 px long.
struct ScaleBar {
    let metresPerPixel: Double
    let units: UnitSystem

    /// Round lengths as (metres, label).
    var candidates: [(Double, String)] {
        switch units {
        case .metric:
            let metres: [Double] = [10, 20, 50, 100, 200, 500]
            let km: [Double] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
            return metres.map { ($0, "\(Int($0)) m") } + km.map { ($0 * 1000, "\(Int($0)) km") }
        case .imperial:
            let feet: [Double] = [50, 100, 200, 500, 1000, 2000]
            let miles: [Double] = [1, 2, 5, 10, 20, 50, 100, 200, 500]
            return feet.map { ($0 * 0.3048, "\(Int($0)) ft") } + [(804.672, "0.5 mi")]
                + miles.map { ($0 * 1609.344, "\(Int($0)) mi") }
        }
    }

    /// The longest round length that fits in 150 px.
    var length: (metres: Double, label: String) {
        candidates.last { $0.0 / metresPerPixel <= 150 } ?? candidates[0]
    }

    func write(x: Double, y: Double, _ out: ExportOutput) {
        let (metres, label) = length
        let px = metres / metresPerPixel
        let x0 = Int(x) + 8, y0 = Int(y)
        let x1 = x0 + Int(px.rounded())
        out.text("<rect class=\"lb-panel\" x=\"\(x0 - 8)\" y=\"\(y0 - 24)\" width=\"\(x1 - x0 + 16)\" height=\"32\" rx=\"6\"/>")
        out.text("<path class=\"lb-ink\" fill=\"none\" stroke-width=\"2\" d=\"M\(x0) \(y0 - 6) V\(y0) H\(x1) V\(y0 - 6)\"/>")
        out.text("<text class=\"lb-fg\" x=\"\((x0 + x1) / 2)\" y=\"\(y0 - 9)\" font-size=\"12\" text-anchor=\"middle\">\(label)</text>\n")
    }
}

/// The colour key: one swatch per speed band, from 0 to the trip's top speed.
struct Legend {
    let topSpeed: Double
    let units: UnitSystem

    func write(x: Double, y: Double, _ out: ExportOutput) {
        let x0 = Int(x), y0 = Int(y)
        let swatch = 14
        let width = swatch * SpeedColor.bands
        out.text("<rect class=\"lb-panel\" x=\"\(x0 - 10)\" y=\"\(y0 - 8)\" width=\"\(width + 20)\" height=\"48\" rx=\"6\"/>")
        out.text("<text class=\"lb-fg\" x=\"\(x0 + width / 2)\" y=\"\(y0 + 5)\" font-size=\"11\" text-anchor=\"middle\">speed</text>")
        for band in 0..<SpeedColor.bands {
            out.text("<rect x=\"\(x0 + band * swatch)\" y=\"\(y0 + 10)\" width=\"\(swatch)\" height=\"10\" fill=\"\(SpeedColor.hex(band: band))\"/>")
        }
        out.text("<text class=\"lb-muted\" x=\"\(x0)\" y=\"\(y0 + 34)\" font-size=\"11\">0</text>")
        out.text("<text class=\"lb-muted\" x=\"\(x0 + width)\" y=\"\(y0 + 34)\" font-size=\"11\" text-anchor=\"end\">max ")
        out.xml(units.speedText(topSpeed))
        out.text("</text>\n")
    }
}
