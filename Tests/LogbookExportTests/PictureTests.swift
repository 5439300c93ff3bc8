// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Testing

@testable import LogbookExport

/// The trip picture's parts on synthetic trips: colours, simplification, layout rules.
@Suite struct PictureTests {
    @Test func bandsRunFromRedThroughYellowToGreen() {
        let slow = SpeedColor.rgb(fraction: 0), mid = SpeedColor.rgb(fraction: 0.5), fast = SpeedColor.rgb(fraction: 1)
        #expect(slow.0 > 200 && slow.1 < 40 && slow.2 < 40)
        #expect(mid.0 > 200 && mid.1 > 200 && mid.2 < 40)
        #expect(fast.0 < 40 && fast.1 > 200 && fast.2 < 40)
        #expect(SpeedColor.band(0, max: 30) == 0)
        #expect(SpeedColor.band(30, max: 30) == SpeedColor.bands - 1)
        #expect(SpeedColor.band(15, max: 30) == SpeedColor.bands / 2)
        #expect(SpeedColor.band(99, max: 0) == 0)
        #expect(SpeedColor.hex(fraction: 0) == "#eb1717")
    }

    @Test func douglasPeuckerDropsStraightRunsAndKeepsCorners() {
        let straight = (0..<1000).map { PicturePoint(x: Double($0) * 0.5, y: 10 + Double($0) * 0.25) }
        #expect(LineSimplifier.simplify(straight, tolerance: 0.35) == [straight[0], straight[999]])
        let corner = (0..<100).map { PicturePoint(x: Double(min($0, 50)), y: Double(max($0 - 50, 0))) }
        let kept = LineSimplifier.simplify(corner, tolerance: 0.35)
        #expect(kept == [corner[0], corner[50], corner[99]])
    }

    /// A trip whose speed ramps from 0 to 30 m/s: every band appears, fastest drawn first, and
    /// each run of the route starts exactly where the one before it on the road ended (no
    /// colour lost to simplifying).
    @Test func routeRunsCoverEveryBandAndJoinUp() throws {
        let points = SampleTrips.points(600, speed: 30, ramp: true)
        let picture = TripPicture(trip: SampleTrips.overview(1, points), points: points, gaps: [])
        let svg = picture.svg()
        let route = try #require(svg.range(of: "<g class=\"lb-route\">")).upperBound
        let routeEnd = try #require(svg.range(of: "</g>", range: route..<svg.endIndex)).lowerBound
        let runs = svg[route..<routeEnd].split(separator: "\n").filter { $0.hasPrefix("<polyline") }
        let bands = runs.compactMap { $0.split(separator: "\"")[1].dropFirst(4) }.compactMap { Int($0) }
        #expect(bands == Array((0..<SpeedColor.bands).reversed()))
        let vertices = runs.map { $0.split(separator: "\"")[3].split(separator: " ") }
        for (later, earlier) in zip(vertices, vertices.dropFirst()) { #expect(earlier.last == later.first) }
        // A straight road: each run collapses to its two ends.
        #expect(vertices.allSatisfy { $0.count == 2 })
    }

    @Test func aGapIsDrawnDashedAndSplitsTheRoute() {
        let points = SampleTrips.withHole(SampleTrips.points(40), before: 20)
        let picture = TripPicture(trip: SampleTrips.overview(1, points), points: points, gaps: [SampleTrips.gap(before: 20, in: points)])
        let svg = picture.svg()
        #expect(svg.components(separatedBy: "<line class=\"lb-gap\"").count == 2)
        #expect(svg.components(separatedBy: "<polyline class=\"lb-b").count >= 3)  // 2 route runs + the chart
    }

    @Test func scaleBarsAreRoundAndFit() {
        #expect(ScaleBar(metresPerPixel: 100, units: .metric).length.label == "10 km")
        #expect(ScaleBar(metresPerPixel: 1, units: .metric).length.label == "100 m")
        #expect(ScaleBar(metresPerPixel: 100, units: .imperial).length.label == "5 mi")
        #expect(ScaleBar(metresPerPixel: 1, units: .imperial).length.label == "200 ft")
        #expect(SpeedChart.scale(130) == (50, 150))
        #expect(SpeedChart.scale(81) == (20, 100))
    }

    @Test func aTripWithoutPointsStillMakesAPicture() {
        let picture = TripPicture(trip: SampleTrips.overview(5, []), points: [], gaps: [])
        #expect(picture.svg().contains("No points recorded"))
        #expect(picture.html().contains("<svg"))
    }

    @Test func unitsAndTimeZoneReachTheLabels() {
        let points = SampleTrips.points(3600)
        var picture = TripPicture(
            trip: SampleTrips.overview(1, points), points: points, gaps: [],
            options: TripPictureOptions(units: .imperial, utcOffset: 7200, timeZoneName: "CEST", vehicleName: "Golf"))
        let svg = picture.svg()
        #expect(svg.contains("13:22–14:22 CEST"))
        #expect(svg.contains(">mph<") && svg.contains("max 45 mph"))
        #expect(picture.shareSummary == "Trip on 3 Apr, 44.7 mi in 1 h 0 min, avg 45 mph, max 45 mph, Golf")
        picture.options = TripPictureOptions()
        #expect(picture.svg().contains("max 72 km/h"))
    }

    @Test func theHTMLPageIsSelfContained() {
        let points = SampleTrips.points(100)
        let html = TripPicture(trip: SampleTrips.overview(1, points), points: points, gaps: []).html()
        let urls = html.components(separatedBy: "://").count - 1
        #expect(urls == 1 && html.contains("xmlns=\"http://www.w3.org/2000/svg\""))  // the SVG namespace names, never loads
        for forbidden in ["<script", "<link", "@import", "url(", "src="] { #expect(!html.contains(forbidden)) }
        #expect(html.contains("prefers-color-scheme: dark"))
        #expect(html.contains("Trip on 3 Apr, 2.0 km in 2 min"))
        #expect(html.contains("power supply ACAD (power:ACAD)"))
    }

    /// Issue 23 part 6: the page names where the trip went, as `trips show` (the caller's namer
    /// sets the names); a side without a name shows its coordinates; no names, no line.
    @Test func theHTMLPageNamesTheTripsEnds() throws {
        let points = SampleTrips.points(10)
        var trip = SampleTrips.overview(1, points)
        #expect(!TripPicture(trip: trip, points: points, gaps: []).html().contains("<p class=\"route\">"))
        trip.startPlace = "Home & Garden"
        trip.endPlace = "near Thun, CH"
        #expect(TripPicture(trip: trip, points: points, gaps: []).html().contains("<p class=\"route\">From Home &amp; Garden to near Thun, CH</p>"))
        trip.endPlace = nil
        trip.end = TripOverview.Position(latitude: 46.75, longitude: 7.625)
        #expect(TripPicture(trip: trip, points: points, gaps: []).html().contains("<p class=\"route\">From Home &amp; Garden to 46.7500, 7.6250</p>"))
    }
}
