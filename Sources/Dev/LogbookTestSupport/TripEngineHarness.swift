// SPDX-License-Identifier: MIT
public import LogbookCore

/// A trip engine, a manual clock and everything the engine decided, for tests.
public struct TripEngineHarness: Sendable {
    /// The engine under test.
    public var engine: TripEngine
    /// The clock events are stamped with.
    public var clock = ManualClock()
    /// Every decision so far, in order.
    public private(set) var decisions: [TripDecision] = []

    /// Creates a harness around an engine with `configuration`.
    public init(configuration: TripEngineConfiguration = TripEngineConfiguration()) {
        engine = TripEngine(configuration: configuration)
    }

    /// Sends one event at the clock's current instant; returns its decisions.
    @discardableResult
    public mutating func send(_ event: TripEvent) -> [TripDecision] {
        let out = engine.handle(event, at: clock.now)
        decisions += out
        return out
    }

    /// Sends a signal.
    @discardableResult
    public mutating func signal(_ signal: VehicleSignal) -> [TripDecision] { send(.signal(signal)) }

    /// Sends a command.
    @discardableResult
    public mutating func command(_ command: TripCommand) -> [TripDecision] { send(.command(command)) }

    /// Advances the clock by `seconds`, ticking once a second on the way (like the daemon).
    public mutating func wait(_ seconds: Double) {
        var left = seconds
        while left > 0 {
            let step = min(1, left)
            clock.advance(by: step)
            left -= step
            send(.tick)
        }
    }

    /// Sends fixes one second apart on the clock (the clock advances before each).
    public mutating func feed(_ fixes: [Fix]) {
        for fix in fixes {
            clock.advance(by: 1)
            send(.fix(fix))
        }
    }

    /// Starts of all trips so far.
    public var starts: [TripStartInfo] {
        decisions.compactMap { if case .start(let s) = $0 { s } else { nil } }
    }

    /// Ends of all trips so far.
    public var ends: [TripEndInfo] {
        decisions.compactMap { if case .end(let e) = $0 { e } else { nil } }
    }

    /// Points recorded so far.
    public var points: [TripPoint] {
        decisions.compactMap { if case .point(let p) = $0 { p } else { nil } }
    }

    /// Gaps reported so far.
    public var gaps: [TripGap] {
        decisions.compactMap { if case .gap(let g) = $0 { g } else { nil } }
    }

    /// Points of each trip, split at the start decisions.
    public var pointsPerTrip: [[TripPoint]] {
        var result: [[TripPoint]] = []
        for d in decisions {
            switch d {
            case .start: result.append([])
            case .point(let p): if !result.isEmpty { result[result.count - 1].append(p) }
            default: break
            }
        }
        return result
    }
}
