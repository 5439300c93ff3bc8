// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookGPSD
internal import LogbookSystemd
internal import Logging
internal import ServiceLifecycle
internal import Synchronization

/// The daemon's main loop: takes gpsd events and ticks in order and turns them into state.
///
/// It holds no locks across awaits and does no I/O itself, so it never waits on disk.
struct PipelineService: Service {
    let events: AsyncStream<PipelineEvent>
    let state: DaemonState
    let notifier: SystemdNotifier
    let logger: Logger
    let gpsd: GPSDEndpoint
    let stall: StallSwitch

    func run() async {
        var filter = FixFilter()
        var status = StatusLine(notifier: notifier)
        status.set("waiting for gpsd at \(gpsd)")
        notifier.ready()
        logger.info("logbookd ready", metadata: ["gpsd": "\(gpsd)"])
        for await event in events.cancelOnGracefulShutdown() {
            if stall.isOn { await stallForever() }
            state.pipelineTurned()
            switch event {
            case .gps(let batch):
                var news = false
                for e in batch {
                    handle(e, &filter)
                    if case .fix = e {} else { news = true }
                }
                // Connection changes are news at once; fix details wait for the tick.
                if news { status.set(Self.describe(state.snapshot.gps, gpsd: gpsd)) }
            case .tick:
                status.set(Self.describe(state.snapshot.gps, gpsd: gpsd))
            }
        }
        state.update {
            $0.gps.connected = false
            $0.gps.mode = .notSeen
        }
        logger.info("pipeline stopped")
    }

    private func handle(_ event: GPSDEvent, _ filter: inout FixFilter) {
        switch event {
        case .connected:
            state.update { $0.gps.connected = true }
        case .disconnected:
            state.update {
                $0.gps.connected = false
                $0.gps.mode = .notSeen
            }
        case .noFix(let mode, let time):
            state.update {
                $0.gps.mode = mode
                if let time { $0.gps.time = time }
            }
        case .fix(let raw):
            guard case .accepted(let fix, _) = filter.filter(raw) else {
                state.update { $0.gps.rejected += 1 }
                return
            }
            state.update { s in
                s.gps.fixes += 1
                s.gps.mode = fix.mode
                s.gps.time = fix.time
                s.gps.latitude = fix.latitude
                s.gps.longitude = fix.longitude
                s.gps.speed = fix.speed
                s.gps.track = fix.track
                s.gps.eph = fix.eph
                if let n = fix.satellitesUsed { s.gps.satellitesUsed = n }
            }
        }
    }

    /// What `systemctl status` should say about the receiver.
    static func describe(_ gps: LiveState.GPSBlock, gpsd: GPSDEndpoint) -> String {
        guard gps.connected else { return "waiting for gpsd at \(gpsd)" }
        switch gps.mode {
        case .twoD, .threeD:
            let sats = gps.satellitesUsed.map { ", \($0) satellites" } ?? ""
            return "\(gps.mode == .threeD ? "3D" : "2D") fix\(sats)"
        case .noFix, .notSeen:
            return "connected to gpsd, no fix"
        }
    }

    /// Test hook (`LOGBOOKD_DEBUG_STALL_SIGNAL=1` + SIGUSR1): hang like a real deadlock would,
    /// so the watchdog stops and systemd restarts the service.
    private func stallForever() async {
        logger.warning("pipeline stalled on purpose (debug stall hook)")
        while true { try? await Task.sleep(for: .seconds(3600)) }
    }
}

/// Sends STATUS= only when the text changes.
struct StatusLine {
    let notifier: SystemdNotifier
    private var last = ""
    init(notifier: SystemdNotifier) { self.notifier = notifier }

    mutating func set(_ text: String) {
        guard text != last else { return }
        last = text
        notifier.status(text)
    }
}

/// Set by the debug stall hook.
final class StallSwitch: Sendable {
    private let flag = Atomic<Bool>(false)
    var isOn: Bool { flag.load(ordering: .relaxed) }
    func turnOn() { flag.store(true, ordering: .relaxed) }
}
