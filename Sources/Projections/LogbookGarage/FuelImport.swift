// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookRecords

/// Reads a LubeLogger or Fuelly CSV export of fill-ups into `fuel.add` requests, row by row,
/// each row checked by the same validator as a typed-in fill-up; bad rows are reported by
/// their line number.
///
/// - LubeLogger (`Date,Odometer,FuelConsumed,Cost,FuelEconomy,IsFillToFull,MissedFuelUp,Notes,Tags[,extrafield_…]`):
///   `Cost` is the total paid; booleans `True`/`False`.
/// - Fuelly (`car_name,model,mpg,odometer,miles,gallons,price,city_percentage,fuelup_date,date_added,tags,notes,missed_fuelup,partial_fuelup,latitude,longitude,brand`,
///   or the metric export's `km`, `litres`/`liters`, `l/100km`): `price` is per unit; flags `0`/`1`.
///
/// Neither file names its units or currency: the caller says them.
public struct FuelImport: Sendable {
    public enum Format: String, Sendable, CaseIterable { case lubelogger, fuelly }
    public enum DateOrder: String, Sendable, CaseIterable { case mdy, dmy, ymd }

    public struct Options: Sendable {
        public var vehicle: String
        public var currency: String
        /// Odometer in miles and volumes in US gallons (converted to km and litres).
        public var imperial: Bool
        /// How to read dates like `1/6/2029`; nil: the one order every row's date parses under.
        public var dateOrder: DateOrder?
        public init(vehicle: String, currency: String, imperial: Bool = false, dateOrder: DateOrder? = nil) {
            self.vehicle = vehicle
            self.currency = currency
            self.imperial = imperial
            self.dateOrder = dateOrder
        }
    }

    /// A row turned into request fields, with its line number in the file (1 = header).
    public var rows: [(line: Int, fields: [(String, JSONValue)])] = []
    /// Lines that could not be read, with why.
    public var problems: [(line: Int, message: String)] = []

    public init(text: String, format: Format, options: Options) throws(EntryProblem) {
        let table = CSV.parse(text)
        guard let header = table.first?.fields.map({ $0.trimmed.lowercased() }) else { throw .bad("the file is empty") }
        func column(_ names: String...) -> Int? { names.lazy.compactMap { header.firstIndex(of: $0) }.first }
        let date: Int?, odometer: Int?, volume: Int?, money: Int?
        let full: Int?, missed: Int?, note: Int?, lat: Int?, lon: Int?, brand: Int?
        switch format {
        case .lubelogger:
            (date, odometer, volume, money) = (column("date"), column("odometer"), column("fuelconsumed"), column("cost"))
            (full, missed, note) = (column("isfilltofull"), column("missedfuelup"), column("notes"))
            (lat, lon, brand) = (nil, nil, nil)
        case .fuelly:
            (date, odometer, volume, money) = (column("fuelup_date"), column("odometer"), column("gallons", "litres", "liters"), column("price"))
            (full, missed, note) = (column("partial_fuelup"), column("missed_fuelup"), column("notes"))
            (lat, lon, brand) = (column("latitude"), column("longitude"), column("brand"))
        }
        guard let date, let odometer, let volume, let money else {
            throw .bad("line 1: not a \(format.rawValue) export (needs the columns \(format == .lubelogger ? "Date, Odometer, FuelConsumed, Cost" : "fuelup_date, odometer, gallons or litres, price"))")
        }
        let order: DateOrder
        if let given = options.dateOrder {
            order = given
        } else {
            let dates = table.dropFirst().compactMap { row in date < row.fields.count ? row.fields[date].trimmed : nil }
            order = try Self.dateOrder(dates)
        }
        let units: UnitSystem = options.imperial ? .imperial : .metric
        for row in table.dropFirst() where !row.fields.allSatisfy({ $0.trimmed.isEmpty }) {
            func cell(_ i: Int?) -> String? { i.flatMap { $0 < row.fields.count ? row.fields[$0].trimmed : nil }.flatMap { $0.isEmpty ? nil : $0 } }
            do throws(EntryProblem) {
                let at = try Self.date(cell(date), order: order)
                let odo = units.kilometres(typed: try Self.number(cell(odometer), "odometer"))
                let quantity = try Self.number(cell(volume), "volume")
                let paid = try Self.number(cell(money), "price")
                var fields: [(String, JSONValue)] = [
                    ("vehicle", .string(options.vehicle)), ("at", .string(at)), ("odometer_km", .number((odo * 10).rounded() / 10)),
                    ("litres", .number((units.litres(typed: quantity) * 1000).rounded() / 1000)),
                    ("price", .number(((format == .fuelly ? paid * quantity : paid) * 100).rounded() / 100)),
                    ("currency", .string(options.currency)),
                ]
                let isFull = format == .fuelly ? !(try Self.flag(cell(full), "partial_fuelup")) : try Self.flag(cell(full), "IsFillToFull", absent: true)
                fields.append(("full", .bool(isFull)))
                fields.append(("missed", .bool(try Self.flag(cell(missed), "missed fill-up"))))
                if let b = cell(brand) { fields.append(("station", .string(b))) }
                if let a = cell(lat).flatMap(Double.init), let o = cell(lon).flatMap(Double.init), a != 0 || o != 0 {
                    fields += [("lat", .number(a)), ("lon", .number(o))]
                }
                if let n = cell(note) { fields.append(("note", .string(n))) }
                rows.append((row.line, fields))
            } catch {
                problems.append((row.line, error.message))
            }
        }
    }

    /// The order the file's dates are written in: the one every date parses under. A file
    /// whose dates fit several orders (all days ≤ 12) is ambiguous: the error names
    /// `--date-order` and the orders that fit. When none fits every row, the order most rows
    /// fit (the rows that do not are then reported one by one).
    static func dateOrder(_ dates: [String]) throws(EntryProblem) -> DateOrder {
        // ISO times and year-first dates read the same in every order.
        let written = dates.filter { d in
            guard !d.isEmpty, ISO8601.parse(d) == nil else { return false }
            let first = d.prefix { $0.isNumber }
            return (Int(first) ?? 0) <= 31
        }
        guard !written.isEmpty else { return .ymd }
        var fits: [(DateOrder, Int)] = []
        for order in DateOrder.allCases {
            var n = 0
            for d in written where (try? date(d, order: order)) != nil { n += 1 }
            fits.append((order, n))
        }
        let all = fits.filter { $0.1 == written.count }.map(\.0)
        if all.count == 1 { return all[0] }
        if all.count > 1 {
            let example = written.first ?? ""
            throw .bad("dates such as \(example) fit more than one order (\(all.map(\.rawValue).joined(separator: ", "))): give --date-order \(all.map(\.rawValue).joined(separator: " or --date-order "))")
        }
        return fits.max { $0.1 < $1.1 }?.0 ?? .ymd
    }

    static func number(_ text: String?, _ what: String) throws(EntryProblem) -> Double {
        guard let text else { throw .bad("\(what) is missing") }
        let cleaned = text.filter { $0 != "$" && $0 != "€" && $0 != " " && $0 != "," }
        guard let n = Double(cleaned), n.isFinite else { throw .bad("\(what) is not a number: \(text)") }
        return n
    }

    static func flag(_ text: String?, _ what: String, absent: Bool = false) throws(EntryProblem) -> Bool {
        guard let text else { return absent }
        switch text.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw .bad("\(what) is not true/false: \(text)")
        }
    }

    /// An ISO 8601 time, or a date (with an optional `HH:MM[:SS]`) in the given order, as UTC.
    static func date(_ text: String?, order: DateOrder) throws(EntryProblem) -> String {
        guard let text else { throw .bad("the date is missing") }
        if let t = ISO8601.parse(text) { return ISO8601.format(t) }
        let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
        let numbers = parts[0].split(whereSeparator: { $0 == "/" || $0 == "-" || $0 == "." }).compactMap { Int($0) }
        guard numbers.count == 3 else { throw .bad("not a date: \(text)") }
        let (y, m, d) =
            numbers[0] > 31 ? (numbers[0], numbers[1], numbers[2])
            : order == .mdy ? (numbers[2], numbers[0], numbers[1]) : order == .dmy ? (numbers[2], numbers[1], numbers[0]) : (numbers[0], numbers[1], numbers[2])
        var time = "00:00:00"
        if parts.count == 2 {
            let hms = parts[1].split(separator: ":").compactMap { Int($0) }
            guard (2...3).contains(hms.count), hms[0] < 24, hms[1] < 60 else { throw .bad("not a time: \(parts[1])") }
            time = twoDigits(hms[0]) + ":" + twoDigits(hms[1]) + ":" + twoDigits(hms.count == 3 ? hms[2] : 0)
        }
        let iso = "\(y)-\(twoDigits(m))-\(twoDigits(d))T\(time)Z"
        guard (1...12).contains(m), (1...31).contains(d), let t = ISO8601.parse(iso), ISO8601.format(t).hasPrefix(String(iso.prefix(10))) else {
            throw .bad("not a date: \(text) (read as \(order.rawValue); --date-order mdy, dmy or ymd)")
        }
        return ISO8601.format(t)
    }
}

/// RFC 4180 CSV: quoted fields with `""`, commas and line breaks inside quotes; `\r\n` or `\n`.
enum CSV {
    struct Row {
        /// The line the row starts on (1-based).
        var line: Int
        var fields: [String]
    }

    static func parse(_ text: String) -> [Row] {
        var rows: [Row] = []
        var fields: [String] = []
        var field = ""
        var quoted = false, wasQuoted = false
        var line = 1, rowStart = 1
        var chars = Array(text.unicodeScalars)
        if chars.first == "\u{FEFF}" { chars.removeFirst() }
        var i = 0
        func endRow() {
            fields.append(field)
            rows.append(Row(line: rowStart, fields: fields))
            fields = []
            field = ""
            wasQuoted = false
        }
        while i < chars.count {
            let c = chars[i]
            if quoted {
                if c == "\"" {
                    if i + 1 < chars.count, chars[i + 1] == "\"" {
                        field.unicodeScalars.append("\"")
                        i += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
            } else if c == "\"", field.isEmpty, !wasQuoted {
                quoted = true
                wasQuoted = true
            } else if c == "," {
                fields.append(field)
                field = ""
                wasQuoted = false
            } else if c == "\n" || c == "\r" {
                if c == "\r", i + 1 < chars.count, chars[i + 1] == "\n" { i += 1 }
                endRow()
                line += 1
                rowStart = line
            } else {
                field.unicodeScalars.append(c)
            }
            i += 1
        }
        if !field.isEmpty || !fields.isEmpty { endRow() }
        return rows
    }
}
