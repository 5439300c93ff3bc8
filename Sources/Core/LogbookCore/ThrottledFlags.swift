// SPDX-License-Identifier: MIT
/// The Raspberry Pi firmware's throttled flags: what `vcgencmd get_throttled` prints as
/// `throttled=0x50005` and the kernel shows in `/sys/devices/platform/soc/soc:firmware/get_throttled`
/// (hexadecimal). Bits 0–3 say what is happening now, bits 16–19 what happened since boot.
/// The `rpi_volt` hwmon's `in0_lcrit_alarm` (`0`/`1`) reads as bit 0: under-voltage now.
public struct ThrottledFlags: Sendable, Hashable {
    /// One condition the firmware reports.
    public enum Condition: String, Sendable, Hashable, CaseIterable {
        /// The supply is below about 4.63 V (a weak supply, a long cable, the starter motor).
        case underVoltage = "under-voltage"
        /// The ARM's frequency is capped.
        case frequencyCapped = "frequency-capped"
        /// The CPU is throttled.
        case throttled
        /// The soft temperature limit is active.
        case softTemperatureLimit = "soft-temperature-limit"

        /// Its bit among the "now" bits (add 16 for "since boot").
        var bit: UInt32 {
            switch self {
            case .underVoltage: 0
            case .frequencyCapped: 1
            case .throttled: 2
            case .softTemperatureLimit: 3
            }
        }
    }

    /// The flags as read.
    public var rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Parses `50005`, `0x50005` or `throttled=0x50005` (hexadecimal, surrounding space
    /// ignored); nil for anything else.
    public init?(parsing text: String) {
        var s = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        while let last = s.last, last == " " || last == "\t" || last == "\n" || last == "\r" { s = s.dropLast() }
        if s.hasPrefix("throttled=") { s = s.dropFirst("throttled=".count) }
        if s.hasPrefix("0x") || s.hasPrefix("0X") { s = s.dropFirst(2) }
        guard !s.isEmpty, s.count <= 8, let value = UInt32(s, radix: 16) else { return nil }
        rawValue = value
    }

    /// What is happening now, in the order of ``Condition``.
    public var now: [Condition] { Condition.allCases.filter { rawValue & (1 << $0.bit) != 0 } }
    /// What happened since boot.
    public var sinceBoot: [Condition] { Condition.allCases.filter { rawValue & (1 << ($0.bit + 16)) != 0 } }

    /// `0x50005`.
    public var hex: String { "0x" + String(rawValue, radix: 16) }

    /// The on/off changes between two readings (`previous` nil: the first), in order. A
    /// condition that came and went between two readings (its since-boot bit newly set, its
    /// now bit clear) is reported on, then off, so a short dip is still on record.
    public static func changes(from previous: ThrottledFlags?, to current: ThrottledFlags) -> [(Condition, Bool)] {
        var out: [(Condition, Bool)] = []
        for c in Condition.allCases {
            let was = previous?.now.contains(c) ?? false
            let isOn = current.now.contains(c)
            if was != isOn {
                out.append((c, isOn))
            } else if !isOn, current.sinceBoot.contains(c), !(previous?.sinceBoot.contains(c) ?? false) {
                out.append((c, true))
                out.append((c, false))
            }
        }
        return out
    }
}
