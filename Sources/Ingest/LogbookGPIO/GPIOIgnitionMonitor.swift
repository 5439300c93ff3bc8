// SPDX-License-Identifier: MIT
public import LogbookCore
public import Logging
internal import LogbookSystemd
#if canImport(Glibc)
    internal import Glibc
#endif

/// Watches an ignition-sense GPIO line (opto-coupler or divider on a Pi header pin) through
/// libgpiod v1 and reports its debounced level as a `.gpio` ``VehicleSignal``.
///
/// On its own OS thread it opens ``chip`` (`gpiochip0`, a number, a label or `/dev/gpiochipN`),
/// requests line ``line`` for both-edge events as consumer `logbookd`, reads the initial level
/// and then waits for edges with a 100 ms timeout (so ``stop()`` is prompt). Every edge and the
/// level read after it go into an ``IgnitionDebouncer``; a level counts once steady for
/// ``debounce``. The initial state is reported on start, one debounce interval after the line
/// was opened; afterwards only changes (and never the same state twice in a row, even across
/// a reopen).
///
/// Errors (no chip, line busy, permission, a read failing) are logged once per episode at
/// error level and retried every ``retryInterval``; the monitor never crashes and reports
/// nothing while the line is unavailable (it does not guess "off").
///
/// - Important: **Untested without hardware.** The CI VM's kernel has no GPIO support
///   (`CONFIG_GPIOLIB` off, so no gpio-sim or gpio-mockup), so this adapter is only compiled
///   there; the debounce logic is unit-tested in ``IgnitionDebouncer``. To test on a Pi: wire a
///   push button (or the opto-coupler output) from GPIO17 (header pin 11) to GND, enable the
///   pull-up (`pinctrl set 17 ip pu`, or `gpio=17=ip,pu` in `config.txt`), configure
///   `[[source]] type = "gpio"`, `line = 17`, `active_low = true`, run `logbookd` with debug
///   logging and check that presses shorter than `debounce_ms` report nothing and longer ones
///   report one `gpio:NAME` on/off each; `gpioinfo gpiochip0` shows the line used by
///   `logbookd`; starting a second instance must log "line is held by another consumer" and
///   keep retrying; `stop` must return within 0.5 s.
public final class GPIOIgnitionMonitor: Sendable {
    /// The chip: a name (`gpiochip0`), number, label or `/dev` path.
    public let chip: String
    /// The line offset on the chip (the BCM GPIO number on a Pi's `gpiochip0`).
    public let line: UInt32
    /// The source name in signals and trip reasons (`gpio:NAME`).
    public let name: String
    /// The vehicle id the signals name (nil: the engine's default vehicle).
    public let vehicle: String?
    /// Whether a low line means "ignition on" (opto-coupler pulling to ground).
    public let activeLow: Bool
    /// How long the level must hold before it counts.
    public let debounce: Duration
    /// How long to wait before opening the line again after an error.
    public let retryInterval: Duration

    private let logger: Logger
    private let onSignal: @Sendable (VehicleSignal) -> Void
    private let thread = EventLoopThread(name: "lb-gpio")

    /// - Parameters:
    ///   - chip: default `gpiochip0`.
    ///   - line: the line offset.
    ///   - name: the source name; default `ignition`.
    ///   - vehicle: the vehicle id the signals carry.
    ///   - activeLow: `true` if a low line means "on".
    ///   - debounce: default 200 ms.
    ///   - retryInterval: default 5 s; clamped to at least 100 ms.
    ///   - logger: where problems and changes are logged.
    ///   - onSignal: called on the monitor's thread for each signal; must return at once.
    public init(
        chip: String = "gpiochip0", line: UInt32, name: String = "ignition", vehicle: String? = nil,
        activeLow: Bool = false, debounce: Duration = .milliseconds(200), retryInterval: Duration = .seconds(5),
        logger: Logger, onSignal: @escaping @Sendable (VehicleSignal) -> Void
    ) {
        self.chip = chip
        self.line = line
        self.name = name
        self.vehicle = vehicle
        self.activeLow = activeLow
        self.debounce = debounce
        self.retryInterval = max(retryInterval, .milliseconds(100))
        self.logger = logger
        self.onSignal = onSignal
    }

    deinit { thread.stop(timeout: .zero) }

    /// Starts watching (reports the initial state once debounced). Does nothing if already started.
    public func start() {
        let settings = LineWatch.Settings(
            chip: chip, line: line, name: name, vehicle: vehicle, activeLow: activeLow,
            debounce: debounce, retryMilliseconds: milliseconds(retryInterval))
        let (log, emit) = (logger, onSignal)
        let started = thread.start { stop in
            var watch = LineWatch(settings: settings, logger: log, emit: emit)
            watch.run(until: stop)
        }
        if !started { logger.error("gpio monitor: could not start its thread") }
    }

    /// Stops watching; returns within about 0.5 s.
    public func stop() {
        if !thread.stop() { logger.warning("gpio monitor: thread did not stop within 0.5 s") }
    }
}

/// The loop's state, created on and confined to the monitor thread.
struct LineWatch {
    struct Settings: Sendable {
        let chip: String
        let line: UInt32
        let name: String
        let vehicle: String?
        let activeLow: Bool
        let debounce: Duration
        let retryMilliseconds: Int64
    }

    /// The longest single wait, so a stop request is seen within about this long.
    static let waitSliceMilliseconds: Int64 = 100

    let settings: Settings
    let logger: Logger
    let emit: @Sendable (VehicleSignal) -> Void
    /// The last state reported, kept across reopens so a reopen does not repeat it.
    private var reported: Bool?
    /// The error last logged, so a failing retry is logged once per episode.
    private var lastProblem: GPIOLineError?

    init(settings: Settings, logger: Logger, emit: @escaping @Sendable (VehicleSignal) -> Void) {
        self.settings = settings
        self.logger = logger
        self.emit = emit
    }

    private var metadata: Logger.Metadata {
        ["chip": "\(settings.chip)", "line": "\(settings.line)", "name": "\(settings.name)"]
    }

    /// Opens the line, watches it until an error or stop, and retries after errors.
    mutating func run(until stop: LoopControl) {
        while !stop.stopRequested {
            do throws(GPIOLineError) {
                let line = try GPIOLine(chip: settings.chip, offset: settings.line, consumer: "logbookd")
                if lastProblem != nil {
                    logger.notice("gpio line available again", metadata: metadata)
                    lastProblem = nil
                } else {
                    logger.info("gpio line requested", metadata: metadata)
                }
                try watch(line, until: stop)
            } catch {
                if error != lastProblem {
                    logger.error("gpio line unavailable, retrying", metadata: metadata.merging(
                        ["error": "\(error)", "retry_ms": "\(settings.retryMilliseconds)"]) { $1 })
                    lastProblem = error
                } else {
                    logger.debug("gpio line still unavailable", metadata: metadata.merging(["error": "\(error)"]) { $1 })
                }
                sleep(milliseconds: settings.retryMilliseconds, unless: stop)
            }
        }
    }

    /// Feeds the line's initial level and every edge into a fresh debouncer until stop.
    private mutating func watch(_ line: GPIOLine, until stop: LoopControl) throws(GPIOLineError) {
        var debouncer = IgnitionDebouncer(debounce: settings.debounce, activeLow: settings.activeLow)
        report(debouncer.feed(level: try line.level(), at: Self.now()))
        while !stop.stopRequested {
            var timeout = Self.waitSliceMilliseconds
            if let deadline = debouncer.deadline {
                // Wake when the pending level becomes stable, so it is reported on time.
                let left = deadline.nanoseconds.subtractingReportingOverflow(Self.now().nanoseconds)
                timeout = left.overflow ? 0 : min(timeout, Int64(clamping: (left.partialValue + 999_999) / 1_000_000))
            }
            if try line.waitForEdge(milliseconds: timeout) {
                let edge = try line.readEdge()
                let now = Self.now()
                report(debouncer.feed(level: edge, at: now))
                // The level now, in case edges were lost (the kernel's event queue is small).
                report(debouncer.feed(level: try line.level(), at: now))
                logger.trace("gpio edge", metadata: metadata.merging(["rising": "\(edge)"]) { $1 })
            }
            report(debouncer.advance(to: Self.now()))
        }
    }

    /// Emits a debounced state unless it repeats the last one reported.
    private mutating func report(_ state: Bool?) {
        guard let state, state != reported else { return }
        reported = state
        logger.info("gpio ignition \(state ? "on" : "off")", metadata: metadata)
        emit(VehicleSignal(kind: .gpio, name: settings.name, vehicle: settings.vehicle, isOn: state))
    }

    /// Sleeps `milliseconds` in slices, returning early once stop is requested.
    private func sleep(milliseconds: Int64, unless stop: LoopControl) {
        var left = milliseconds
        while left > 0, !stop.stopRequested {
            let slice = min(left, Self.waitSliceMilliseconds)
            usleep(useconds_t(slice * 1000))
            left -= slice
        }
    }

    /// The process's monotonic clock on the debouncer's scale.
    private static func now() -> MonotonicInstant {
        MonotonicInstant(nanoseconds: UInt64(clamping: monotonicNanoseconds()))
    }
}

/// Whole milliseconds in `duration`, at least 1.
private func milliseconds(_ duration: Duration) -> Int64 {
    let c = duration.components
    return max(1, c.seconds * 1000 + c.attoseconds / 1_000_000_000_000_000)
}
