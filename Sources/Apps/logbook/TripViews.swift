// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookExport
import LogbookPOSIX
import LogbookRecords
import LogbookSettings
import LogbookStore

/// `trips list` output.
enum TripsListView {
    /// The trips of a list, newest first, each time it is called: the table reads them twice.
    typealias Trips = ((TripOverview) throws -> Void) throws -> Void

    /// Prints the table line by line, in two passes over the trips (the column widths and the
    /// totals, then the lines), so no row is held: ten years of trips print in the memory of one.
    static func printTable(_ trips: Trips, _ settings: ReaderSettings) throws {
        let f = TripFormat(units: settings.units)
        var header = ["Trip", "Date", "Vehicle", "Duration", "Distance", "Avg", "Max", "Route", "Start → end"]
        func cells(_ t: TripOverview) -> [String] {
            var end = t.endReason ?? "recording…"
            if t.discarded { end += " (discarded)" }
            if t.voided { end += " (void)" } else if t.corrected { end += " (corrected)" }
            return [
                t.id.description, t.startedAt.map(TripFormat.dateTime) ?? "—",
                settings.vehicle(t.vehicleID)?.name ?? "—", TripFormat.duration(t.duration), f.distance(t.distance),
                f.speed(t.averageSpeed), f.speed(t.maxSpeed), TripFormat.route(t), "\(t.startReason) → \(end)",
            ]
        }
        var widths = header.map(\.count)
        var totals = Totals()
        try trips { t in
            for (i, cell) in cells(t).enumerated() { widths[i] = max(widths[i], cell.count) }
            totals.add(t)
        }
        guard totals.listed > 0 else { return print("No trips recorded (yet) for this selection.") }
        // The zone of the dates, as the other lists name it: in the header when that is no
        // wider than the dates (`Date (UTC)`), else on the totals line, so the table keeps its width.
        let zoned = "Date (\(LocalZone.label))"
        if zoned.count <= widths[1] { header[1] = zoned } else { totals.zone = LocalZone.label }
        // 80 columns unless the terminal is wider: the average and top speed and the reasons
        // when they fit (in that order), the route cut to what is left.
        let layout = TableLayout(
            natural: widths, optional: [5, 6, 8], flexible: 7, numeric: [0, 3, 4, 5, 6],
            available: TerminalWidth.columns(environment: ProcessInfo.processInfo.environment["COLUMNS"]))
        // Without the reasons column a void, discarded or corrected trip says so before its route.
        func row(_ t: TripOverview) -> [String] {
            var c = cells(t)
            let mark = t.voided ? "void" : t.discarded ? "discarded" : t.corrected ? "corrected" : nil
            if !layout.shown.contains(8), let mark { c[7] = "(\(mark)) " + c[7] }
            return c
        }
        print(layout.line(header))
        try trips { t in print(layout.line(row(t))) }
        print(totals.line(f))
    }

    /// The totals line's figures, kept as the trips go by: `3 trips · 512.3 km · 6 h 12 min`
    /// (discarded and voided trips are listed but not counted).
    struct Totals {
        var listed = 0, kept = 0, discarded = 0, voided = 0
        var distance = 0.0, duration = 0.0
        /// The dates' zone when the header has no room for it.
        var zone: String?

        mutating func add(_ t: TripOverview) {
            listed += 1
            if t.discarded { discarded += 1 } else if t.voided { voided += 1 }
            guard !t.discarded && !t.voided else { return }
            kept += 1
            distance += t.distance
            duration += t.duration
        }

        func line(_ f: TripFormat) -> String {
            var s = "\(kept) trip\(kept == 1 ? "" : "s") · \(f.distance(distance)) · \(TripFormat.duration(duration))"
            let notCounted = [discarded > 0 ? "\(discarded) discarded" : nil, voided > 0 ? "\(voided) void" : nil].compactMap { $0 }
            if !notCounted.isEmpty { s += " (\(notCounted.joined(separator: ", ")) not counted)" }
            if let zone { s += " · dates in \(zone)" }
            return s
        }
    }

    /// The JSON document, written as the trips go by.
    static func printJSON(_ trips: Trips, _ settings: ReaderSettings) throws {
        var writer = TripListWriter()
        print(writer.opening, terminator: "")
        try trips { t in print(writer.element(t, vehicle: settings.vehicle(t.vehicleID)), terminator: "") }
        print(writer.closing)
    }
}

/// `trips show` output.
enum TripShowView {
    static func text(_ t: TripOverview, _ gaps: [TripGap], _ settings: ReaderSettings) -> String {
        let f = TripFormat(units: settings.units)
        let vehicle = settings.vehicle(t.vehicleID)
        let explain = BoundaryExplainer(trip: settings.daemon.trip)
        var title = "Trip \(t.id)"
        if let vehicle { title += " · \(vehicle.name)" }
        if let start = t.startedAt { title += " · \(TripFormat.dateTimeWithZone(start))" }
        if let end = t.endedAt { title += " → \(TripFormat.dateTime(end))" }
        switch t.state {
        case .open: title += " · recording"
        case .discarded: title += " · discarded (too short to keep)"
        case .closed: break
        }
        var out = [title]
        if t.voided { out.append("VOID     \(t.voidReason ?? "no reason given") — not counted (logbook trips restore \(t.id))") }
        out += cards([
            ("Distance", f.distance(t.distance)), ("Duration", TripFormat.duration(t.duration)),
            ("Avg speed", f.speed(t.averageSpeed)), ("Max speed", f.speed(t.maxSpeed)),
        ])
        out.append("Started  \(t.startedAt.map(TripFormat.timeOfDay) ?? "—")  \(explain.start(t.startReason))")
        out.append("Ended    \(t.endedAt.map(TripFormat.timeOfDay) ?? "—")  \(explain.end(t.endReason))")
        if t.startPlace != nil || t.endPlace != nil { out.append("Route    \(TripFormat.route(t))") }
        if let driver = settings.driver(of: t) { out.append("Driver   \(driver)") }
        if !t.mergedFrom.isEmpty { out.append("Merged   trips \(t.mergedFrom.map(\.description).joined(separator: ", ")) were merged into this one") }
        if let from = t.splitFrom { out.append("Split    from trip \(from)") }
        out.append("Points   \(t.pointCount)" + (t.start.map { s in String(format: " · from %.5f, %.5f", s.latitude, s.longitude) } ?? "")
            + (t.end.map { e in String(format: " to %.5f, %.5f", e.latitude, e.longitude) } ?? ""))
        if gaps.isEmpty {
            out.append("Gaps     none")
        } else {
            let bridged = gaps.filter(\.bridged).count
            out.append("Gaps     \(gaps.count) without a fix, \(bridged) bridged (up to \(TripFormat.threshold(settings.daemon.trip.maxBridgedGap)))")
            for g in gaps {
                let what = g.bridged ? "bridged" : "not bridged: the distance across is not counted"
                out.append("         \(TripFormat.timeOfDay(g.from)) → \(TripFormat.timeOfDay(g.to))  \(TripFormat.duration(g.seconds)), \(what)")
            }
        }
        out.append("Share    \(f.shareSummary(t, vehicle: vehicle))")
        return out.joined(separator: "\n")
    }

    /// The seed app's stat cards, as a row of boxes.
    static func cards(_ cards: [(String, String)]) -> [String] {
        let w = cards.map { max($0.0.count, $0.1.count) + 2 }
        let top = "╭" + w.map { String(repeating: "─", count: $0) }.joined(separator: "┬") + "╮"
        let bottom = "╰" + w.map { String(repeating: "─", count: $0) }.joined(separator: "┴") + "╯"
        let labels = "│" + cards.indices.map { " " + pad(cards[$0].0, w[$0] - 1) }.joined(separator: "│") + "│"
        let values = "│" + cards.indices.map { " " + pad(cards[$0].1, w[$0] - 1) }.joined(separator: "│") + "│"
        return [top, labels, values, bottom]
    }

    static func json(_ t: TripOverview, _ gaps: [TripGap], _ settings: ReaderSettings) -> String {
        JSONValue.object(members(t, gaps, settings)).serialized
    }

    static func members(_ t: TripOverview, _ gaps: [TripGap], _ settings: ReaderSettings) -> [(String, JSONValue)] {
        let explain = BoundaryExplainer(trip: settings.daemon.trip)
        var members = TripProperties.apiMembers(of: t, vehicle: settings.vehicle(t.vehicleID))
        if t.driver == nil, let driver = settings.driver(of: t), let i = members.firstIndex(where: { $0.0 == "driver" }) { members[i].1 = .string(driver) }
        members.append(("start_explained", .string(explain.start(t.startReason))))
        members.append(("end_explained", .string(explain.end(t.endReason))))
        members.append(("gaps", .array(gaps.map(TripProperties.gap))))
        // Hand-off to a navigation app: where the trip started and ended.
        members.append(("links", .object([
            ("start", t.start.map { MapLinks(latitude: $0.latitude, longitude: $0.longitude, label: t.startPlace).json } ?? .null),
            ("end", t.end.map { MapLinks(latitude: $0.latitude, longitude: $0.longitude, label: t.endPlace).json } ?? .null),
        ])))
        members.append(("summary", .string(TripFormat(units: settings.units).shareSummary(t, vehicle: settings.vehicle(t.vehicleID)))))
        return members
    }
}

extension TripShowView {
    /// `--history`: every change to the trip, with when it was made and how long after the trip.
    static func history(_ changes: [RecordedEntry], trip: TripOverview) -> String {
        guard !changes.isEmpty else { return "History  no changes since it was recorded" }
        var out = ["History"]
        for c in changes {
            let when = c.recordedAt.map(TripFormat.dateTimeWithZone) ?? "?"
            let after = TripShowView.delay(c, trip: trip).map { ", \($0) after the trip" } ?? ""
            out.append("  \(when)  \(c.entry.summary)  by \(c.entry.origin)\(after)")
        }
        return out.joined(separator: "\n")
    }

    /// How long after the trip's end a change was made (nil when unknown or before the end).
    static func delay(_ c: RecordedEntry, trip: TripOverview) -> String? {
        guard let made = c.recordedAt, let end = trip.endedAt, made > end else { return nil }
        return TripFormat.duration(made.seconds(since: end))
    }

    static func json(_ t: TripOverview, _ gaps: [TripGap], _ settings: ReaderSettings, history: [RecordedEntry]?) -> String {
        guard let history else { return json(t, gaps, settings) }
        var members = members(t, gaps, settings)
        members.append(("history", .array(history.map { c in
            .object([
                ("seq", .number(Double(c.sequence))), ("recorded_at", .string(c.recordedAt.map(ISO8601.format))),
                ("type", .string(c.entry.type)), ("action", .string(c.entry.action.rawValue)), ("origin", .string(c.entry.origin)),
                ("fields", c.entry.fields), ("change", .string(c.entry.summary)),
            ])
        })))
        return JSONValue.object(members).serialized
    }
}
