// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookGPIO
import LogbookTestSupport
import Logging
import Synchronization
import Testing

/// What can be checked without GPIO hardware (the CI VM has none): a missing chip is logged
/// once per episode and retried, nothing is reported, and stop is prompt. Edge handling needs
/// a real line; see the monitor's doc comment.
struct GPIOIgnitionMonitorTests {
    @Test func aMissingChipIsLoggedOnceRetriedAndStopsPromptly() async throws {
        let (logger, store) = CapturingLogHandler.logger("gpio-test")
        let signals = Mutex<[VehicleSignal]>([])
        let monitor = GPIOIgnitionMonitor(
            chip: "/nonexistent/gpiochip-logbook-test", line: 17, retryInterval: .milliseconds(100),
            logger: logger, onSignal: { s in signals.withLock { $0.append(s) } })
        monitor.start()
        monitor.start()  // a second start is a no-op
        // Two retries logged: each is a moment a second error of the same episode would show.
        #expect(await eventually { store.count("still unavailable") >= 2 }, "retried every 100 ms: \(store.all)")
        let clock = ContinuousClock()
        let took = clock.measure { monitor.stop() }
        // A stop that waited on the line would never return; the bound only has to catch that,
        // beside a pass of parallel tests on two cores (typically a few ms).
        #expect(took < .seconds(5), "stop returns promptly: \(took)")

        let lines = store.all
        let errors = lines.filter { $0.hasPrefix("error:") }
        #expect(errors.count == 1, "one error per episode: \(lines)")
        #expect(errors.first?.contains("gpio line unavailable") == true)
        #expect(errors.first?.contains("open GPIO chip /nonexistent/gpiochip-logbook-test") == true)
        #expect(errors.first?.contains("No such file or directory") == true)
        #expect(lines.filter { $0.contains("still unavailable") }.count >= 2, "retried every 100 ms: \(lines)")
        #expect(signals.withLock { $0 }.isEmpty, "nothing is reported while the line is unavailable")
        monitor.stop()  // a second stop is a no-op
    }

    @Test func settingsAreKept() {
        let m = GPIOIgnitionMonitor(line: 4, logger: Logger(label: "gpio-test"), onSignal: { _ in })
        #expect(m.chip == "gpiochip0")
        #expect(m.line == 4)
        #expect(m.name == "ignition")
        #expect(m.activeLow == false)
        #expect(m.debounce == .milliseconds(200))
        #expect(m.retryInterval == .seconds(5))
        let fast = GPIOIgnitionMonitor(line: 4, retryInterval: .zero, logger: Logger(label: "gpio-test"), onSignal: { _ in })
        #expect(fast.retryInterval == .milliseconds(100), "clamped")
    }
}
