// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookPOSIX
internal import LogbookRecords

extension MileageReport {
    /// The CSV columns (a contract: scripts read them by name).
    public static let csvHeader = [
        "trip", "date", "start_utc", "end_utc", "vehicle", "start_odometer_km", "end_odometer_km", "odometer_source",
        "start_place", "end_place", "distance_km", "class", "purpose", "partner", "destination", "business_km",
        "private_km", "commute_km", "classified_at", "changed", "driver", "status", "changes_after_trip", "late", "origin", "classified_by",
        "registration", "start_local", "end_local", "rate", "reimbursement", "currency",
    ]

    /// Header, one row per trip (`date`, `start_local`, `end_local` in ``zone``; `start_utc`,
    /// `end_utc` in UTC), then `#`-rows: totals per class and per month, reimbursement totals
    /// (`#reimbursement,CLASS,AMOUNT,CURRENCY`), the journal's
    /// chain head (`#chain_head,SEQ,HEX`) and, last, the checkpoint (`#checkpoint_seq,SEQ`).
    public var csv: String {
        var out = Self.csvHeader.joined(separator: ",") + "\n"
        for r in rows {
            let (date, start) = time(r.trip.startedAt)
            let (_, end) = time(r.trip.endedAt)
            let c = r.classification
            let perClass = { (name: String) in r.tripClass == name ? Self.km(r.km) : "" }
            let classifiedAt: String = c?.classifiedAt.map { ISO8601.format($0) } ?? ""
            var changed = ""
            if let c, c.changed { changed = "changed \(c.history.count - 1)x, last \(classifiedAt)" }
            let fields = [
                r.trip.id.description, date, Self.utcClock(r.trip.startedAt), Self.utcClock(r.trip.endedAt), r.trip.vehicleID ?? "", Self.km(r.startOdometer), Self.km(r.endOdometer),
                odometerSourceText(r),
                Self.place(r.trip.startPlace, r.trip.start), Self.place(r.trip.endPlace, r.trip.end), Self.km(r.km), r.tripClass,
                c?.purpose ?? "", c?.partner ?? "", c?.destination ?? "", perClass("business"), perClass("private"), perClass("commute"),
                classifiedAt, changed, r.driver ?? "", r.status, String(r.changes.count), r.late ? "yes" : "", r.trip.imported ? "reconstructed (\(r.trip.startReason))" : "recorded",
                c?.classifiedBy ?? "", r.registration ?? "", start, end, r.rate?.text ?? "", Self.money(r.reimbursement), r.rate?.currency ?? "",
            ]
            out += fields.map(Self.csvField).joined(separator: ",") + "\n"
        }
        for name in Self.classes { out += "#total,\(name),\(Self.km(totals[name] ?? 0))\n" }
        for name in Self.classes {
            for (currency, amount) in (reimbursementTotals[name] ?? [:]).sorted(by: { $0.key < $1.key }) {
                out += "#reimbursement,\(name),\(Self.money(amount)),\(currency)\n"
            }
        }
        for rate in ratesUsed { out += "#rate,\(rate.tripClass),\(Self.csvField(rate.text)),from \(Self.day(rate.from))\n" }
        out += "#time_zone,\(Self.csvField(zone.name))\n"
        for month in months.keys.sorted() {
            out += "#month,\(month)," + Self.classes.map { "\($0)=\(Self.km(months[month]?[$0] ?? 0))" }.joined(separator: ",") + "\n"
        }
        // Every change made after its trip ended: when, how long after, what, by whom; late
        // ones (more than 7 days after) flagged.
        for r in rows {
            for c in r.changes {
                let fields = [
                    "#change", r.trip.id.description, c.entry.recordedAt.map(ISO8601.format) ?? "", Self.delay(c.after), c.entry.entry.summary,
                    c.entry.entry.origin, c.late ? "late" : "",
                ]
                out += fields.map(Self.csvField).joined(separator: ",") + "\n"
            }
        }
        out += "#chain_head,\(seal.sequence),\(Hex.encode(seal.chainHead))\n"
        out += "#checkpoint_seq,\(seal.checkpointSequence.map(String.init) ?? "none")\n"
        return out
    }

    /// `3 d 4 h`, `5 h 12 min`, `40 min`.
    static func delay(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded(.down))
        if minutes >= 1440 { return "\(minutes / 1440) d \(minutes % 1440 / 60) h" }
        if minutes >= 60 { return "\(minutes / 60) h \(minutes % 60) min" }
        return "\(minutes) min"
    }

    /// RFC 4180: quoted when it holds a comma, quote or line break; a leading `=+-@` is
    /// prefixed with `'` so a spreadsheet does not run it as a formula.
    static func csvField(_ s: String) -> String {
        var text = s
        if let first = text.first, "=+-@".contains(first), Double(text) == nil { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        var quoted = "\""
        for c in text { quoted += c == "\"" ? "\"\"" : String(c) }
        return quoted + "\""
    }
}
