// SPDX-License-Identifier: MIT
import LogbookTestSupport
import Foundation
@testable import LogbookSystemd
import Logging
import Testing

/// LogindInhibitor against python-dbusmock's `logind` template on a private dbus-daemon.
/// The mock's Inhibit hands out the write end of a pipe and drops the inhibitor from
/// ListInhibitors when that end is closed, so the count proves our fd really was closed.
@Suite struct LogindInhibitorTests {
    private func inhibitor(_ bus: FakeSystemBus, releaseTimeout: Duration = .seconds(4))
        -> (LogindInhibitor, Recorder<LogindInhibitor.Event>, CapturingLogHandler.Store)
    {
        let recorder = Recorder<LogindInhibitor.Event>()
        let (logger, logs) = CapturingLogHandler.logger()
        let i = LogindInhibitor(endpoint: .address(bus.address), releaseTimeout: releaseTimeout,
                                logger: logger, onPrepare: recorder.callback)
        return (i, recorder, logs)
    }

    @Test(.enabled(if: FakeSystemBus.unavailable == nil, "\(FakeSystemBus.unavailable ?? "")"))
    func shutdownCallsTheHandlerThenReleasesAndRetakesWhenCancelled() async throws {
        let bus = try FakeSystemBus(templates: ["logind"])
        defer { bus.stop() }
        // This test is about release(), not the timeout (the next test's): a timeout far longer
        // than any stall of a loaded test run, so the lock is still held when it looks.
        let (inhibitor, events, logs) = inhibitor(bus, releaseTimeout: .seconds(600))
        inhibitor.start()
        defer { inhibitor.stop() }
        #expect(await eventually { inhibitor.holdsLock })
        #expect(try bus.logindInhibitorCount() == 1)
        let list = try bus.busctl(["call", "org.freedesktop.login1", "/org/freedesktop/login1",
                                   "org.freedesktop.login1.Manager", "ListInhibitors"])
        #expect(list.contains("\"shutdown:sleep\" \"logbookd\" \"closing the trip\" \"delay\""))

        try bus.emitLogind("PrepareForShutdown", true)
        #expect(await events.wait(count: 1) == [.shutdown])
        // The daemon closes its trip, then lets go; logind (the mock) sees the fd close.
        #expect(inhibitor.holdsLock, "\(logs.all)")
        inhibitor.release()
        #expect(await eventually { !inhibitor.holdsLock })
        #expect(await eventually { (try? bus.logindInhibitorCount()) == 0 })

        // Shutdown cancelled: the lock is taken again.
        try bus.emitLogind("PrepareForShutdown", false)
        #expect(await eventually { inhibitor.holdsLock })
        #expect(await eventually { (try? bus.logindInhibitorCount()) == 1 })
        #expect(events.all == [.shutdown])
    }

    @Test(.enabled(if: FakeSystemBus.unavailable == nil, "\(FakeSystemBus.unavailable ?? "")"))
    func anUnreleasedLockGoesAfterTheTimeout() async throws {
        let bus = try FakeSystemBus(templates: ["logind"])
        defer { bus.stop() }
        let (inhibitor, events, logs) = inhibitor(bus, releaseTimeout: .milliseconds(300))
        inhibitor.start()
        defer { inhibitor.stop() }
        #expect(await eventually { (try? bus.logindInhibitorCount()) == 1 })
        let sent = ContinuousClock.now
        try bus.emitLogind("PrepareForSleep", true)
        #expect(await events.wait(count: 1) == [.sleep])
        #expect(await eventually { (try? bus.logindInhibitorCount()) == 0 })
        #expect(ContinuousClock.now - sent >= .milliseconds(250))
        #expect(logs.contains("did not release in time"))
        // Resumed: held again.
        try bus.emitLogind("PrepareForSleep", false)
        #expect(await eventually { (try? bus.logindInhibitorCount()) == 1 })
    }

    @Test(.enabled(if: FakeSystemBus.unavailable == nil, "\(FakeSystemBus.unavailable ?? "")"))
    func stopClosesTheLock() async throws {
        let bus = try FakeSystemBus(templates: ["logind"])
        defer { bus.stop() }
        let (inhibitor, _, _) = inhibitor(bus)
        inhibitor.start()
        #expect(await eventually { (try? bus.logindInhibitorCount()) == 1 })
        let started = ContinuousClock.now
        inhibitor.stop()
        // Its thread waits without a timeout: a stop it missed would never return. The bound
        // only catches that, beside a pass of parallel tests on two cores.
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(!inhibitor.holdsLock)
        #expect(await eventually { (try? bus.logindInhibitorCount()) == 0 })
    }

    /// Without polkitd logind answers AccessDenied: the daemon must still hear about the
    /// shutdown and close its trip (best effort), and it logs why it holds no lock.
    @Test(.enabled(if: FakeSystemBus.unavailable == nil, "\(FakeSystemBus.unavailable ?? "")"))
    func aRefusedLockIsLoggedAndTheHandlerStillRuns() async throws {
        let bus = try FakeSystemBus(templates: ["logind"])
        defer { bus.stop() }
        try bus.busctl([
            "call", "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.DBus.Mock", "AddMethod",
            "sssss", "org.freedesktop.login1.Manager", "Inhibit", "ssss", "h",
            "raise dbus.exceptions.DBusException('Access denied', name='org.freedesktop.DBus.Error.AccessDenied')",
        ])
        let (inhibitor, events, logs) = inhibitor(bus)
        inhibitor.start()
        defer { inhibitor.stop() }
        #expect(await eventually { logs.contains("AccessDenied") })
        #expect(!inhibitor.holdsLock)
        try bus.emitLogind("PrepareForShutdown", true)
        #expect(await events.wait(count: 1) == [.shutdown])
        inhibitor.release()  // nothing held: ignored, no crash
        #expect(!inhibitor.holdsLock)
    }
}
