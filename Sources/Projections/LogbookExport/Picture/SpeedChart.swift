// SPDX-License-Identifier: MIT
import LogbookCore

/// The speed over time below the map, in the map's colours: one value per pixel column (the
/// mean speed of the points that fall in it), broken where the trip had no fix.
struct SpeedChart {
    let picture: TripPicture
    let frame: PictureLayout.Frame

    func write(_ out: ExportOutput) {
        let units = picture.options.units
        let (step, top) = Self.scale(units.speed(picture.topSpeed))
        out.text("<g class=\"lb-grid\">")
        var labels = ""
        for k in 0...Int((top / step).rounded()) {
            let v = Double(k) * step
            let y = frame.maxY - v / top * frame.height
            out.text("<line x1=\"\(Int(frame.x))\" y1=\"")
            out.decimal(y, places: 1)
            out.text("\" x2=\"\(Int(frame.maxX))\" y2=\"")
            out.decimal(y, places: 1)
            out.text("\"/>")
            labels += "<text x=\"\(Int(frame.x) - 8)\" y=\"\(NumberText.fixed(y + 4, places: 1))\" text-anchor=\"end\">"
                + NumberText.fixed(v, places: 0) + "</text>"
        }
        out.text("</g>\n<g class=\"lb-muted\" font-size=\"11\">\(labels)")
        out.text("<text x=\"\(Int(frame.x) - 8)\" y=\"\(Int(frame.y) - 10)\" text-anchor=\"end\">\(units.speedUnit)</text>")
        guard let first = picture.points.first, let last = picture.points.last else {
            out.text("</g>\n")
            return
        }
        let t0 = first.time, span = max(last.time.seconds(since: first.time), 1)
        writeTimeAxis(start: t0, span: span, out)
        out.text("</g>\n")
        out.text("<path class=\"lb-axis\" d=\"M\(Int(frame.x)) \(Int(frame.y)) V\(Int(frame.maxY)) H\(Int(frame.maxX))\"/>\n")
        writeLine(start: t0, span: span, top: top, out)
    }

    /// A round step for the speed axis and the axis top (a multiple of it), in display units.
    static func scale(_ topSpeed: Double) -> (step: Double, top: Double) {
        let steps: [Double] = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500]
        let step = steps.first { (topSpeed / $0).rounded(.up) <= 5 } ?? 1000
        return (step, max((topSpeed / step).rounded(.up), 1) * step)
    }

    /// Clock labels at round local times.
    private func writeTimeAxis(start: GPSTime, span: Double, _ out: ExportOutput) {
        let steps: [Double] = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400]
        let step = steps.first { span / $0 <= 6 } ?? 172_800
        let offset = Double(picture.options.utcOffset)
        let localStart = start.seconds + offset
        var tick = (localStart / step).rounded(.up) * step
        while tick <= localStart + span {
            let x = frame.x + (tick - localStart) / span * frame.width
            let time = GPSTime(seconds: Int64(tick - offset))
            out.text("<text x=\"")
            out.decimal(x, places: 1)
            out.text("\" y=\"\(Int(frame.maxY) + 17)\" text-anchor=\"middle\">")
            out.text(TripText.clock(time, utcOffset: picture.options.utcOffset))
            out.text("</text>")
            tick += step
        }
        out.text("<text x=\"\(Int(frame.maxX))\" y=\"\(Int(frame.maxY) + 34)\" text-anchor=\"end\">\(picture.options.timeZoneName)</text>")
    }

    private func writeLine(start: GPSTime, span: Double, top: Double, _ out: ExportOutput) {
        let columns = Int(frame.width)
        var sum = [Double](repeating: 0, count: columns)
        var count = [Int](repeating: 0, count: columns)
        var breakBefore = [Bool](repeating: false, count: columns)
        var breaks = GapBreaks(picture.gaps)
        var last: TripPoint?
        for p in picture.points {
            let c = min(max(Int(p.time.seconds(since: start) / span * Double(columns)), 0), columns - 1)
            if breaks.startsSegment(p) && last != nil { breakBefore[c] = true }
            // A point without a recorded speed gets the speed implied by the step to it.
            let speed = p.speed ?? last.map { GeoJSONWriter.segmentSpeed($0, p) } ?? 0
            sum[c] += speed.isFinite ? max(speed, 0) : 0
            count[c] += 1
            last = p
        }
        let topSpeed = picture.topSpeed, unitsTop = picture.options.units.speed(1)
        var run: [PicturePoint] = []
        var runBand = -1
        var previous: (Double, PicturePoint)?
        out.text("<g class=\"lb-chart\">\n")
        for c in 0..<columns where count[c] > 0 {
            let v = sum[c] / Double(count[c])
            let xy = PicturePoint(x: frame.x + Double(c) + 0.5, y: frame.maxY - min(v * unitsTop / top, 1) * frame.height)
            guard let (pv, pxy) = previous, !breakBefore[c] else {
                MapLayer.emit(run, band: runBand, out)
                run = [xy]
                runBand = -1
                previous = (v, xy)
                continue
            }
            let band = SpeedColor.band((pv + v) / 2, max: topSpeed)
            if band != runBand && runBand >= 0 {
                MapLayer.emit(run, band: runBand, out)
                run = [pxy]
            }
            runBand = band
            run.append(xy)
            previous = (v, xy)
        }
        MapLayer.emit(run, band: runBand, out)
        out.text("</g>\n")
    }
}
