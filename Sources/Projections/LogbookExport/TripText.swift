// SPDX-License-Identifier: MIT
public import LogbookCore

/// A trip in words: dates, the share summary, the reasons behind its boundaries.
public enum TripText {
    /// A trip's end as people read it: its place name (the caller's namer), else its
    /// coordinates to 4 decimals (~10 m), else "—". The CLI's route column and the picture
    /// page's "From … to …" both say it so.
    public static func end(_ name: String?, _ position: TripOverview.Position?) -> String {
        if let name { return name }
        guard let position else { return "—" }
        return NumberText.fixed(position.latitude, places: 4) + ", " + NumberText.fixed(position.longitude, places: 4)
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The civil date and time of `time` shifted by `utcOffset` seconds.
    static func civil(_ time: GPSTime, utcOffset: Int) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int) {
        let (day, rem) = CivilDate.split(seconds: time.wholeSeconds + Int64(utcOffset))
        let date = CivilDate(daysSinceEpoch: day)
        return (date.year, date.month, date.day, Int(rem / 3600), Int(rem % 3600 / 60))
    }

    /// `2010-04-03 11:22`.
    public static func dateTime(_ time: GPSTime, utcOffset: Int) -> String {
        let c = civil(time, utcOffset: utcOffset)
        return "\(c.year)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute))"
    }

    /// `11:22`.
    public static func clock(_ time: GPSTime, utcOffset: Int) -> String {
        let c = civil(time, utcOffset: utcOffset)
        return "\(two(c.hour)):\(two(c.minute))"
    }

    /// `3 Apr 2010`.
    public static func date(_ time: GPSTime, utcOffset: Int) -> String {
        let c = civil(time, utcOffset: utcOffset)
        return "\(c.day) \(months[c.month - 1]) \(c.year)"
    }

    /// The plain-text summary to share, as the seed app's share sheet wrote it:
    /// `Trip on 3 Apr, 240.3 km in 2 h 57 min, avg 81 km/h, max 130 km/h, Golf`.
    ///
    /// - Parameters:
    ///   - trip: the trip.
    ///   - units: metric or imperial.
    ///   - vehicleName: the vehicle's name, else its id, else nothing.
    ///   - utcOffset: seconds east of UTC for the date.
    public static func shareSummary(
        _ trip: TripOverview, units: UnitSystem, vehicleName: String? = nil, utcOffset: Int = 0
    ) -> String {
        var parts: [String] = []
        var head = "Trip"
        if let start = trip.startedAt {
            let c = civil(start, utcOffset: utcOffset)
            head += " on \(c.day) \(months[c.month - 1])"
        }
        parts.append(head)
        parts.append("\(units.distanceText(trip.distance)) in \(NumberText.duration(trip.duration))")
        parts.append("avg \(units.speedText(trip.averageSpeed))")
        parts.append("max \(units.speedText(trip.maxSpeed))")
        if let name = vehicleName ?? trip.vehicleID { parts.append(name) }
        return parts.joined(separator: ", ")
    }

    private static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
}
