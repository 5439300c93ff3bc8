// SPDX-License-Identifier: MIT
public import LogbookCore

/// How a picture reads: units and the local time its clock labels use.
public struct TripPictureOptions: Sendable, Hashable {
    /// Metric or imperial for labels; the data behind them is SI.
    public var units: UnitSystem
    /// Seconds east of UTC for clock times and dates (the CLI passes the local zone's offset).
    public var utcOffset: Int
    /// The zone's name shown next to times (`UTC`, `CET`).
    public var timeZoneName: String
    /// The vehicle's name, when known (else its id is shown).
    public var vehicleName: String?

    /// Creates options.
    public init(units: UnitSystem = .metric, utcOffset: Int = 0, timeZoneName: String = "UTC", vehicleName: String? = nil) {
        self.units = units
        self.utcOffset = utcOffset
        self.timeZoneName = timeZoneName
        self.vehicleName = vehicleName
    }
}

/// A picture of one trip: the route as a line coloured by speed (``SpeedColor``) over a
/// graticule, start and end markers, a scale bar, a north arrow and a legend, and below it
/// the speed over time in the same colours. No tiles and no network: the SVG stands alone.
///
/// Long trips are simplified per colour run (Douglas–Peucker at a third of a pixel), so the
/// file stays small while every change of colour stays where it was.
public struct TripPicture {
    /// The SVG's size in CSS pixels.
    public static let width = 800.0, height = 760.0

    /// The trip.
    public let trip: TripOverview
    /// Its points in order.
    public let points: [TripPoint]
    /// Its stretches without fix.
    public let gaps: [TripGap]
    /// Units and time zone.
    public var options: TripPictureOptions

    /// Creates a picture of `trip` from its points and gaps.
    public init(trip: TripOverview, points: [TripPoint], gaps: [TripGap], options: TripPictureOptions = TripPictureOptions()) {
        self.trip = trip
        self.points = points.filter { $0.latitude.isFinite && $0.longitude.isFinite }
        self.gaps = gaps
        self.options = options
    }

    /// Reads trip `id` from `catalog`; nil when there is no such trip.
    public static func load(_ id: TripID, from catalog: some TripCatalog, options: TripPictureOptions = TripPictureOptions())
        throws -> TripPicture?
    {
        guard let trip = try catalog.trip(id) else { return nil }
        return TripPicture(trip: trip, points: try catalog.points(of: id), gaps: try catalog.gaps(of: id), options: options)
    }

    /// The top speed the colours are relative to: the trip's, else the fastest segment's.
    var topSpeed: Double {
        if trip.maxSpeed > 0 { return trip.maxSpeed }
        var top = 0.0
        for (a, b) in zip(points, points.dropFirst()) { top = max(top, GeoJSONWriter.segmentSpeed(a, b)) }
        return top
    }

    /// `Trip 12 · 3 Apr 2010, 11:22–14:20 CEST`.
    var title: String {
        var s = "Trip \(trip.id)"
        guard let start = trip.startedAt ?? points.first?.time else { return s }
        s += " · " + TripText.date(start, utcOffset: options.utcOffset) + ", " + TripText.clock(start, utcOffset: options.utcOffset)
        if let end = trip.endedAt ?? points.last?.time { s += "–" + TripText.clock(end, utcOffset: options.utcOffset) }
        return s + " " + options.timeZoneName
    }

    /// The share summary with this picture's units, zone and vehicle name.
    public var shareSummary: String {
        TripText.shareSummary(trip, units: options.units, vehicleName: options.vehicleName, utcOffset: options.utcOffset)
    }

    /// The picture as a standalone SVG document.
    public func svg() -> String {
        let out = ExportOutput(MemorySink(), chunkSize: Int.max / 2)
        writeSVG(out)
        return String(decoding: out.buffer, as: UTF8.self)
    }

    /// Writes the `<svg>` element (no XML declaration, so it can sit inside HTML too).
    func writeSVG(_ out: ExportOutput) {
        let w = Self.width, h = Self.height
        out.text("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        out.decimal(w, places: 0)
        out.text("\" height=\"")
        out.decimal(h, places: 0)
        out.text("\" viewBox=\"0 0 \(Int(w)) \(Int(h))\" role=\"img\" aria-label=\"")
        out.xml(shareSummary)
        out.text("\" font-family=\"system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif\">\n<title>")
        out.xml(title)
        out.text("</title>\n")
        PictureStyle.write(out)
        out.text("<rect class=\"lb-bg\" width=\"100%\" height=\"100%\"/>\n")
        out.text("<text class=\"lb-fg\" x=\"16\" y=\"27\" font-size=\"17\" font-weight=\"600\">")
        out.xml(title)
        out.text("</text>\n<text class=\"lb-muted\" x=\"784\" y=\"27\" font-size=\"14\" text-anchor=\"end\">")
        out.xml(options.units.distanceText(trip.distance) + " · " + NumberText.duration(trip.duration))
        out.text("</text>\n")
        MapLayer(picture: self, frame: PictureLayout.map).write(out)
        SpeedChart(picture: self, frame: PictureLayout.chart).write(out)
        out.text("</svg>\n")
    }
}

/// Where the parts of the picture sit (SVG user units).
enum PictureLayout {
    struct Frame {
        var x: Double, y: Double, width: Double, height: Double
        var maxX: Double { x + width }
        var maxY: Double { y + height }
    }

    static let map = Frame(x: 0, y: 40, width: 800, height: 480)
    static let chart = Frame(x: 60, y: 548, width: 720, height: 170)
}
