// SPDX-License-Identifier: MIT
import LogbookCore

extension TripPicture {
    /// A self-contained HTML page (inline CSS, no scripts, no external URLs): the stat cards of
    /// the seed's trip view, the picture, why the trip started and ended, and the share summary.
    /// Follows the reader's light or dark mode.
    public func html() -> String {
        let out = ExportOutput(MemorySink(), chunkSize: Int.max / 2)
        let units = options.units, offset = options.utcOffset
        out.text("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        out.text("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        out.text("<meta name=\"color-scheme\" content=\"light dark\">\n<title>")
        out.xml(title)
        out.text("</title>\n<style>\n\(Self.pageStyle)</style>\n</head>\n<body>\n<main>\n<h1>")
        out.xml(title)
        out.text("</h1>\n")
        if let route = routeText {
            out.text("<p class=\"route\">")
            out.xml(route)
            out.text("</p>\n")
        }
        out.text("<section class=\"cards\">\n")
        var cards: [(String, String)] = [
            ("Distance", units.distanceText(trip.distance)),
            ("Duration", NumberText.duration(trip.duration)),
            ("Average speed", units.speedText(trip.averageSpeed)),
            ("Top speed", units.speedText(trip.maxSpeed)),
            ("Points", "\(trip.pointCount)"),
        ]
        if let vehicle = options.vehicleName ?? trip.vehicleID { cards.append(("Vehicle", vehicle)) }
        for (label, value) in cards {
            out.text("<div class=\"card\"><div class=\"label\">")
            out.xml(label)
            out.text("</div><div class=\"value\">")
            out.xml(value)
            out.text("</div></div>\n")
        }
        out.text("</section>\n<figure>\n")
        writeSVG(out)
        out.text("</figure>\n<section class=\"why\">\n<h2>Why it started and ended</h2>\n<dl>\n")
        let start = trip.startedAt ?? points.first?.time, end = trip.endedAt ?? points.last?.time
        row("Started", start.map { TripText.clock($0, utcOffset: offset) + " " + options.timeZoneName }, TripText.reason(trip.startReason), out)
        row("Ended", end.map { TripText.clock($0, utcOffset: offset) + " " + options.timeZoneName },
            trip.endReason.map(TripText.reason) ?? "still recording", out)
        if !gaps.isEmpty {
            let total = gaps.reduce(0) { $0 + max($1.to.seconds(since: $1.from), 0) }
            let bridged = gaps.filter(\.bridged).count
            row("No fix", "\(gaps.count) \(gaps.count == 1 ? "stretch" : "stretches"), \(NumberText.duration(total)) in all",
                bridged == gaps.count ? "bridged: the distance across counts" : "\(bridged) of \(gaps.count) bridged", out)
        }
        out.text("</dl>\n</section>\n<section class=\"share\">\n<h2>Share</h2>\n<p>")
        out.xml(shareSummary)
        out.text("</p>\n</section>\n</main>\n</body>\n</html>\n")
        return String(decoding: out.buffer, as: UTF8.self)
    }

    /// `From Home to near Thun, CH`, from the trip's place names (the caller's namer); a side
    /// without a name shows its coordinates (4 decimals, ~10 m). Nil when neither end is named.
    var routeText: String? {
        guard trip.startPlace != nil || trip.endPlace != nil else { return nil }
        return "From " + TripText.end(trip.startPlace, trip.start) + " to " + TripText.end(trip.endPlace, trip.end)
    }

    private func row(_ label: String, _ when: String?, _ why: String, _ out: ExportOutput) {
        out.text("<dt>")
        out.xml(label)
        out.text("</dt><dd>")
        if let when {
            out.xml(when)
            out.text(" — ")
        }
        out.xml(why)
        out.text("</dd>\n")
    }

    static let pageStyle = """
        :root{color-scheme:light dark;--bg:#f4f6f8;--card:#ffffff;--fg:#111827;--muted:#5b6472;--line:#dde3ea}
        @media (prefers-color-scheme: dark){:root{--bg:#0d1117;--card:#161b22;--fg:#e6edf3;--muted:#9aa4b2;--line:#2a313c}}
        body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}
        main{max-width:832px;margin:0 auto;padding:16px}
        h1{font-size:22px;margin:4px 0 14px}h2{font-size:16px;margin:0 0 8px}
        .route{margin:-8px 0 14px;color:var(--muted)}
        .cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(120px,1fr));gap:10px;margin-bottom:14px}
        .card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:10px 12px}
        .label{color:var(--muted);font-size:13px}
        .value{font-size:20px;font-weight:600;font-variant-numeric:tabular-nums;white-space:nowrap}
        figure{margin:0 0 14px;background:var(--card);border:1px solid var(--line);border-radius:12px;overflow:hidden}
        figure svg{display:block;width:100%;height:auto}
        section.why,section.share{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:12px 14px;margin-bottom:14px}
        dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 14px;margin:0}dt{color:var(--muted)}dd{margin:0}
        .share p{margin:0;user-select:all}

        """
}

extension TripText {
    /// The reasons logbookd records, by kind (the part before a `:`).
    public static let reasonKinds = [
        "power", "bluetooth", "device", "gpio", "obd", "motion", "manual", "service", "shutdown", "recovered", "gap",
    ]

    /// A reason kind in words, nil for a kind not known.
    static func reasonKindWords(_ kind: String) -> String? {
        switch kind {
        case "power": "power supply"
        case "bluetooth": "car Bluetooth"
        case "device": "USB device"
        case "gpio": "ignition line"
        case "obd": "engine (OBD-II)"
        case "motion": "motion rule"
        case "manual": "by hand"
        case "service": "logbookd started with the car"
        case "shutdown": "logbookd stopped: system shutdown or service stop"
        case "recovered": "recovered after a power loss"
        case "gap": "no GPS data for too long"
        default: nil
        }
    }

    /// A boundary's recorded reason in words, the raw reason kept in brackets:
    /// `power supply ACAD (power:ACAD)`. Unknown reasons are shown as recorded.
    public static func reason(_ raw: String) -> String {
        let parts = raw.split(separator: ":", maxSplits: 1)
        let kind = parts.first.map(String.init) ?? raw
        guard var words = reasonKindWords(kind) else { return raw }
        if kind == "manual" { words += " (logbook trip start/stop)" }
        if parts.count > 1, kind != "motion" { words += " " + parts[1] }
        return words + " (\(raw))"
    }

    /// A reason for a screen, without the recorded code: `Power supply (ACAD)`, `By hand`.
    /// Unknown reasons are shown as recorded.
    public static func reasonWords(_ raw: String) -> String {
        let parts = raw.split(separator: ":", maxSplits: 1)
        let kind = parts.first.map(String.init) ?? raw
        guard let words = reasonKindWords(kind) else { return raw }
        let detail = parts.count > 1 && kind != "motion" ? " (\(parts[1]))" : ""
        return words.prefix(1).uppercased() + words.dropFirst() + detail
    }
}
