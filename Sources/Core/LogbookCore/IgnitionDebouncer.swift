// SPDX-License-Identifier: MIT
/// Software debounce for an ignition-sense input (a GPIO line behind an opto-coupler or divider).
///
/// Feed it the raw physical level of the line (`true` = high) with a monotonic timestamp on every
/// sample or edge, and call ``advance(to:)`` when time passes without one. It reports a stable
/// on/off only once the level has stayed the same for ``debounce``; shorter glitches and contact
/// bounce are ignored. ``activeLow`` inverts the level (an opto-coupler pulling the line low when
/// the ignition is on).
///
/// The initial state is unknown (``state`` is nil) until the first level has been steady for
/// ``debounce``; that first stable level is reported like any change, so the caller learns the
/// initial state without a separate path.
///
/// Pure value type: no clock, no I/O. The GPIO monitor owns one on its thread; tests drive it by hand.
public struct IgnitionDebouncer: Sendable, Hashable {
    /// How long a level must stay unchanged before it counts.
    public let debounce: Duration
    /// Whether a low line means "on".
    public let activeLow: Bool
    /// The debounced state (`true` = ignition on); nil until a level has been steady long enough.
    public private(set) var state: Bool?

    /// The last raw physical level seen and since when it has held.
    private var level: Bool?
    private var levelSince = MonotonicInstant.zero
    private let debounceNanoseconds: UInt64

    /// - Parameters:
    ///   - debounce: how long a level must hold; default 200 ms; negative counts as zero.
    ///   - activeLow: `true` if a low line means "on".
    public init(debounce: Duration = .milliseconds(200), activeLow: Bool = false) {
        let c = debounce.components
        let ns = c.seconds * 1_000_000_000 + c.attoseconds / 1_000_000_000
        self.debounce = ns > 0 ? debounce : .zero
        self.debounceNanoseconds = UInt64(clamping: max(0, ns))
        self.activeLow = activeLow
    }

    /// The raw physical level last fed (`true` = high), or nil before the first sample.
    public var rawLevel: Bool? { level }

    /// The instant at which the pending level becomes stable if nothing else arrives, or nil
    /// when nothing is pending (the raw level already matches ``state``). The monitor waits at
    /// most until then so the change is reported on time.
    public var deadline: MonotonicInstant? {
        guard let level, logical(level) != state else { return nil }
        let (sum, overflow) = levelSince.nanoseconds.addingReportingOverflow(debounceNanoseconds)
        return MonotonicInstant(nanoseconds: overflow ? .max : sum)
    }

    /// Records the raw physical `level` (`true` = high) observed at `time`.
    ///
    /// A level that differs from the previous one restarts the debounce interval; the same level
    /// again does not. Before taking the new level, the previous one is settled at `time`, so a
    /// level that held long enough counts even if ``advance(to:)`` was not called in between.
    ///
    /// - Returns: the new debounced state if it changed, else nil.
    public mutating func feed(level newLevel: Bool, at time: MonotonicInstant) -> Bool? {
        let before = state
        settle(at: time)
        if newLevel != level {
            level = newLevel
            // Time never runs backwards for the interval: a stale timestamp counts as "now".
            levelSince = max(time, levelSince)
        }
        settle(at: time)
        return state != before ? state : nil
    }

    /// Lets time pass to `time` without a new sample.
    ///
    /// - Returns: the new debounced state if the pending level became stable, else nil.
    public mutating func advance(to time: MonotonicInstant) -> Bool? {
        let before = state
        settle(at: time)
        return state != before ? state : nil
    }

    /// Forgets everything (the line was lost): ``state`` and ``rawLevel`` become nil.
    public mutating func reset() {
        state = nil
        level = nil
        levelSince = .zero
    }

    /// The logical (on/off) meaning of a physical level.
    public func logical(_ physical: Bool) -> Bool { physical != activeLow }

    /// Commits the pending level if it has held for `debounce` by `time`.
    private mutating func settle(at time: MonotonicInstant) {
        guard let level, logical(level) != state, let deadline, time >= deadline else { return }
        state = logical(level)
    }
}
