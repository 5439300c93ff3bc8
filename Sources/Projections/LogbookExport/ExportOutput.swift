// SPDX-License-Identifier: MIT
public import LogbookCore

/// A byte buffer in front of a ``ByteSink``: writers append text and numbers, and the buffer
/// goes to the sink whenever it passes ``chunkSize``. Formatting numbers here, without
/// `String(describing:)` or Foundation, is what keeps exports fast on a Pi.
public final class ExportOutput {
    /// The sink the bytes go to.
    public let sink: any ByteSink
    /// Bytes buffered before they go to the sink.
    public let chunkSize: Int
    /// Bytes handed to the sink so far (plus those still buffered).
    public var count: Int { flushed + buffer.count }

    var buffer: [UInt8] = []
    private var flushed = 0

    /// Creates an output in front of `sink`.
    ///
    /// - Parameters:
    ///   - sink: where the bytes go.
    ///   - chunkSize: how many bytes to gather before each write (64 KiB by default).
    public init(_ sink: any ByteSink, chunkSize: Int = 64 << 10) {
        self.sink = sink
        self.chunkSize = max(chunkSize, 256)
        buffer.reserveCapacity(min(self.chunkSize, 1 << 20) + 4096)
    }

    /// Hands the buffer to the sink once it has grown past ``chunkSize``.
    @inline(__always) public func flushIfFull() throws {
        if buffer.count >= chunkSize { try flush() }
    }

    /// Hands everything buffered to the sink.
    public func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try sink.write($0) }
        flushed += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Appends one byte.
    @inline(__always) public func byte(_ b: UInt8) { buffer.append(b) }

    /// Appends literal text.
    public func text(_ s: StaticString) {
        s.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    /// Appends text as is (the caller escapes it for the format).
    public func text(_ s: String) {
        var s = s
        s.withUTF8 { buffer.append(contentsOf: $0) }
    }

    /// Appends a decimal integer.
    public func integer(_ value: Int64) {
        if value < 0 {
            byte(UInt8(ascii: "-"))
            unsigned(value.magnitude)
        } else {
            unsigned(UInt64(value))
        }
    }

    /// Appends a decimal integer.
    public func integer(_ value: Int) { integer(Int64(value)) }

    private func unsigned(_ value: UInt64) {
        // Digits go in backwards, then the run is reversed in place: no temporary storage.
        let start = buffer.count
        var v = value
        repeat {
            buffer.append(48 + UInt8(v % 10))
            v /= 10
        } while v > 0
        var (i, j) = (start, buffer.count - 1)
        while i < j {
            buffer.swapAt(i, j)
            i += 1
            j -= 1
        }
    }

    /// Appends `value` rounded to at most `decimals` places, without trailing zeros
    /// (`7.5`, `12`, `-0.0001234`). Non-finite values must be handled by the caller.
    ///
    /// - Parameters:
    ///   - value: a finite number with magnitude below about 9e11 at 7 places.
    ///   - decimals: 0…9 places.
    public func decimal(_ value: Double, places decimals: Int) {
        let scale = DecimalScale.powers[min(max(decimals, 0), 9)]
        let scaled = (value * Double(scale)).rounded()
        guard scaled.magnitude < 9.2e18 else {
            text(String(value))  // far outside anything an export holds; stay correct anyway
            return
        }
        var n = Int64(scaled)
        if n < 0 {
            byte(UInt8(ascii: "-"))
            n = -n
        }
        let whole = n / scale
        var fraction = n % scale
        unsigned(UInt64(whole))
        guard fraction != 0 else { return }
        var places = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            places -= 1
        }
        byte(UInt8(ascii: "."))
        var div = DecimalScale.powers[places - 1]
        while div > 0 {
            byte(UInt8(48 + fraction / div % 10))
            div /= 10
        }
    }

    /// Appends an ISO 8601 UTC time, `2010-04-03T11:22:33Z`, with milliseconds when present
    /// (`…:33.250Z`), as ``LogbookCore/ISO8601/format(_:)`` writes it.
    public func time(_ t: GPSTime) {
        let seconds = t.wholeSeconds
        var day = seconds / 86_400
        var rem = seconds - day * 86_400
        if rem < 0 {
            rem += 86_400
            day -= 1
        }
        if day != cachedDay {
            cachedDay = day
            cachedDate = CivilDate.prefix(forDay: day)
        }
        buffer.append(contentsOf: cachedDate)
        two(Int(rem / 3600))
        byte(UInt8(ascii: ":"))
        two(Int(rem % 3600 / 60))
        byte(UInt8(ascii: ":"))
        two(Int(rem % 60))
        let millis = Int((t.nanoseconds - seconds * 1_000_000_000) / 1_000_000)
        if millis != 0 {
            byte(UInt8(ascii: "."))
            byte(UInt8(48 + millis / 100))
            two(millis % 100)
        }
        byte(UInt8(ascii: "Z"))
    }

    private var cachedDay = Int64.min
    private var cachedDate: [UInt8] = []

    @inline(__always) private func two(_ v: Int) {
        byte(UInt8(48 + v / 10))
        byte(UInt8(48 + v % 10))
    }
}

/// Days since 1970-01-01 to `YYYY-MM-DDT` (Howard Hinnant's civil-from-days, as in
/// LogbookCore's ISO8601, which keeps it internal).
enum CivilDate {
    /// Year, month (1…12) and day (1…31) of `z0` days since 1970-01-01.
    static func components(forDay z0: Int64) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = Int(doy - (153 * mp + 2) / 5 + 1)
        let m = Int(mp < 10 ? mp + 3 : mp - 9)
        return (Int(yoe + era * 400 + (m <= 2 ? 1 : 0)), m, d)
    }

    /// `YYYY-MM-DDT` for `day` days since 1970-01-01.
    static func prefix(forDay day: Int64) -> [UInt8] {
        let (y, m, d) = components(forDay: day)
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
        }
        return Array("\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T".utf8)
    }
}

enum DecimalScale {
    static let powers: [Int64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]
}
