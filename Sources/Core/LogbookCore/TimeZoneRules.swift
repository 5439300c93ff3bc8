// SPDX-License-Identifier: MIT
/// A time zone's offsets over time, read from a TZif file (RFC 8536, what
/// `/usr/share/zoneinfo` holds) without Foundation: the one local-time conversion of the
/// project. Loading the file is the caller's (``TimeZoneRules/init(name:tzif:)`` takes its bytes).
///
/// Local times a person types are turned into instants by ``utc(fromLocal:)``, with one rule
/// for the two DST edges: a local time that does not exist (skipped in spring) moves forward
/// by the gap (`02:30` on the spring-forward night is `03:30` summer time), and a local time
/// that happens twice (autumn) is the first of the two (still summer time).
public struct TimeZoneRules: Sendable, Hashable {
    /// One kind of local time: its offset east of UTC and its abbreviation (`CET`).
    public struct Kind: Sendable, Hashable {
        public var offset: Int
        public var isDST: Bool
        public var abbreviation: String
        public init(offset: Int, isDST: Bool, abbreviation: String) {
            self.offset = offset
            self.isDST = isDST
            self.abbreviation = abbreviation
        }
    }

    /// The IANA name (`Europe/Berlin`), or `UTC`.
    public let name: String
    /// Transition instants (seconds since the epoch), ascending, and the kind from each on.
    let transitions: [(at: Int64, kind: Int)]
    let kinds: [Kind]
    /// The kind before the first transition.
    let initialKind: Int
    /// The POSIX TZ rule for instants after the last transition (the TZif v2+ footer).
    let footer: PosixZoneRule?

    /// UTC itself.
    public static let utc = TimeZoneRules(name: "UTC", transitions: [], kinds: [Kind(offset: 0, isDST: false, abbreviation: "UTC")], initialKind: 0, footer: nil)

    init(name: String, transitions: [(at: Int64, kind: Int)], kinds: [Kind], initialKind: Int, footer: PosixZoneRule?) {
        self.name = name
        self.transitions = transitions
        self.kinds = kinds
        self.initialKind = initialKind
        self.footer = footer
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.name == b.name && a.kinds == b.kinds && a.initialKind == b.initialKind && a.footer == b.footer
            && a.transitions.elementsEqual(b.transitions, by: { $0.at == $1.at && $0.kind == $1.kind })
    }

    public func hash(into h: inout Hasher) {
        h.combine(name)
        h.combine(transitions.count)
    }

    /// The kind of local time in force at `seconds` since the epoch.
    public func kind(atUTC seconds: Int64) -> Kind {
        if let last = transitions.last, seconds >= last.at, let footer { return footer.kind(atUTC: seconds) }
        if transitions.isEmpty, let footer { return footer.kind(atUTC: seconds) }
        var lo = 0, hi = transitions.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if transitions[mid].at <= seconds { lo = mid + 1 } else { hi = mid }
        }
        return kinds[lo == 0 ? initialKind : transitions[lo - 1].kind]
    }

    /// Seconds east of UTC at `time`.
    public func offset(_ time: GPSTime) -> Int { kind(atUTC: time.wholeSeconds).offset }

    /// The zone's abbreviation at `time` (`CET`, `CEST`, `UTC`).
    public func abbreviation(_ time: GPSTime) -> String { kind(atUTC: time.wholeSeconds).abbreviation }

    /// The instant of a local wall-clock time given as seconds since 1970-01-01T00:00 local:
    /// a skipped time moves forward by the gap, a repeated one is the first (see the type).
    public func utc(fromLocal local: Int64) -> Int64 {
        // Offsets never exceed ±26 h: try the offsets in force around the local time.
        let before = kind(atUTC: local - 86_400 * 2).offset, after = kind(atUTC: local + 86_400 * 2).offset
        var candidates: [Int64] = []
        for o in [before, after, kind(atUTC: local).offset] {
            let t = local - Int64(o)
            if Int64(kind(atUTC: t).offset) == Int64(o), !candidates.contains(t) { candidates.append(t) }
        }
        if let first = candidates.min() { return first }
        // Skipped: read with the offset before the gap, it lands the gap's length after it.
        return local - Int64(before)
    }
}

extension TimeZoneRules {
    /// A zone given as a POSIX `TZ` rule (`CET-1CEST,M3.5.0,M10.5.0/3`, `UTC0`); nil when it is not one.
    public init?(name: String, posixRule: String) {
        guard let rule = PosixZoneRule(posixRule) else { return nil }
        self.init(name: name, transitions: [], kinds: [rule.standard], initialKind: 0, footer: rule)
    }
}
