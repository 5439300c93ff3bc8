// SPDX-License-Identifier: MIT
import LogbookCore

/// The map half of the picture: background, graticule, the route coloured by speed, dashed
/// lines across gaps, start and end markers, scale bar, north arrow and legend.
struct MapLayer {
    let picture: TripPicture
    let frame: PictureLayout.Frame

    /// Vertices closer than this to the simplified line are dropped (pixels).
    static let tolerance = 0.35

    func write(_ out: ExportOutput) {
        out.text("<rect class=\"lb-map\" x=\"\(Int(frame.x))\" y=\"\(Int(frame.y))\" width=\"\(Int(frame.width))\" height=\"\(Int(frame.height))\"/>\n")
        guard let projection = MapProjection(fitting: picture.points, into: frame, margin: 36) else {
            out.text("<text class=\"lb-muted\" x=\"400\" y=\"280\" font-size=\"16\" text-anchor=\"middle\">No points recorded</text>\n")
            return
        }
        Graticule(projection: projection, frame: frame).write(out)
        writeRoute(projection, out)
        writeMarkers(projection, out)
        ScaleBar(metresPerPixel: projection.metresPerPixel, units: picture.options.units).write(x: frame.x + 16, y: frame.maxY - 18, out)
        writeNorthArrow(x: frame.maxX - 30, y: frame.y + 18, out)
        Legend(topSpeed: picture.topSpeed, units: picture.options.units).write(x: frame.maxX - 206, y: frame.maxY - 54, out)
    }

    /// The route, one polyline per run of one colour band, each simplified on its own, so a
    /// change of colour stays exactly where the speed changed. Faster bands are drawn first:
    /// where the road passes twice (a stop, a town, the way back), the slow part stays visible.
    private func writeRoute(_ projection: MapProjection, _ out: ExportOutput) {
        let top = picture.topSpeed
        var breaks = GapBreaks(picture.gaps)
        var gapLines: [(PicturePoint, PicturePoint)] = []
        var runs: [[[PicturePoint]]] = Array(repeating: [], count: SpeedColor.bands)  // by band
        var run: [PicturePoint] = []
        var runBand = -1
        func finish() {
            if runBand >= 0, run.count >= 2 { runs[runBand].append(run) }
        }
        var previous: (TripPoint, PicturePoint)?
        for p in picture.points {
            let xy = projection.point(p)
            let split = breaks.startsSegment(p)
            guard let (prevPoint, prevXY) = previous, !split else {
                if let (_, prevXY) = previous { gapLines.append((prevXY, xy)) }
                finish()
                run = [xy]
                runBand = -1
                previous = (p, xy)
                continue
            }
            let band = SpeedColor.band(GeoJSONWriter.segmentSpeed(prevPoint, p), max: top)
            if band != runBand && runBand >= 0 {
                finish()
                run = [prevXY]
            }
            runBand = band
            run.append(xy)
            previous = (p, xy)
        }
        finish()
        out.text("<g class=\"lb-route\">\n")
        for band in runs.indices.reversed() {
            for line in runs[band] { Self.emit(line, band: band, out) }
        }
        out.text("</g>\n")
        for (a, b) in gapLines {
            out.text("<line class=\"lb-gap\" x1=\"")
            out.decimal(a.x, places: 1)
            out.text("\" y1=\"")
            out.decimal(a.y, places: 1)
            out.text("\" x2=\"")
            out.decimal(b.x, places: 1)
            out.text("\" y2=\"")
            out.decimal(b.y, places: 1)
            out.text("\"/>\n")
        }
    }

    static func emit(_ run: [PicturePoint], band: Int, _ out: ExportOutput) {
        guard run.count >= 2, band >= 0 else { return }
        let line = LineSimplifier.simplify(run, tolerance: tolerance)
        out.text("<polyline class=\"lb-b\(band)\" points=\"")
        for (i, p) in line.enumerated() {
            if i > 0 { out.byte(UInt8(ascii: " ")) }
            out.decimal(p.x, places: 1)
            out.byte(UInt8(ascii: ","))
            out.decimal(p.y, places: 1)
        }
        out.text("\"/>\n")
    }

    /// Start: a white disc ringed in blue. End: a dark disc with a white ring (a target).
    private func writeMarkers(_ projection: MapProjection, _ out: ExportOutput) {
        guard let first = picture.points.first, let last = picture.points.last else { return }
        let a = projection.point(first), b = projection.point(last)
        out.text("<g><title>end</title><circle cx=\"")
        out.decimal(b.x, places: 1)
        out.text("\" cy=\"")
        out.decimal(b.y, places: 1)
        out.text("\" r=\"8\" fill=\"#111827\" stroke=\"#ffffff\" stroke-width=\"3\"/></g>\n")
        out.text("<g><title>start</title><circle cx=\"")
        out.decimal(a.x, places: 1)
        out.text("\" cy=\"")
        out.decimal(a.y, places: 1)
        out.text("\" r=\"7\" fill=\"#ffffff\" stroke=\"#1d4ed8\" stroke-width=\"4\"/></g>\n")
        // The key, top left.
        let x = Int(frame.x) + 16, y = Int(frame.y) + 22
        out.text("<rect class=\"lb-panel\" x=\"\(x - 8)\" y=\"\(y - 14)\" width=\"132\" height=\"28\" rx=\"6\"/>\n")
        out.text("<circle cx=\"\(x + 6)\" cy=\"\(y)\" r=\"5\" fill=\"#ffffff\" stroke=\"#1d4ed8\" stroke-width=\"3\"/>")
        out.text("<text class=\"lb-fg\" x=\"\(x + 16)\" y=\"\(y + 4)\" font-size=\"12\">start</text>")
        out.text("<circle cx=\"\(x + 64)\" cy=\"\(y)\" r=\"6\" fill=\"#111827\" stroke=\"#ffffff\" stroke-width=\"2\"/>")
        out.text("<text class=\"lb-fg\" x=\"\(x + 75)\" y=\"\(y + 4)\" font-size=\"12\">end</text>\n")
    }

    private func writeNorthArrow(x: Double, y: Double, _ out: ExportOutput) {
        let cx = Int(x), top = Int(y)
        out.text("<g class=\"lb-ink\"><title>north</title>")
        out.text("<path d=\"M\(cx) \(top + 2) L\(cx + 9) \(top + 30) L\(cx) \(top + 24) L\(cx - 9) \(top + 30) Z\"/>")
        out.text("<text x=\"\(cx)\" y=\"\(top + 46)\" font-size=\"14\" font-weight=\"700\" text-anchor=\"middle\" stroke=\"none\">N</text></g>\n")
    }
}
