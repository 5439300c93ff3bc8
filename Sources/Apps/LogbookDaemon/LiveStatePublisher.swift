// SPDX-License-Identifier: MIT
internal import Dispatch
internal import LogbookCore
internal import LogbookPOSIX
internal import Logging
internal import ServiceLifecycle

/// Replaces `live.json` atomically every interval (at most 2 s), on a Dispatch queue of
/// its own: file writes never run on the Swift concurrency pool, and a stalled pipeline
/// or socket client never delays them.
struct LiveStatePublisher: Service {
    let path: String
    let interval: Duration
    let state: DaemonState
    let logger: Logger

    func run() async {
        let queue = DispatchQueue(label: "logbook.live-state")
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let nanos = Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        let publish: @Sendable () -> Void = { [path, state, logger] in
            let doc = state.nextPublication(at: wallClockNow())
            // 0644 whatever the umask; no fsync: the runtime directory is a tmpfs and the
            // content is rebuilt within 2 s after a crash anyway.
            do {
                try AtomicFile.replace(path, with: Array((doc.json.serialized + "\n").utf8), mode: 0o644, durable: false)
            } catch {
                logger.error("cannot write live state", metadata: ["path": "\(path)", "error": "\(error)"])
            }
        }
        timer.schedule(deadline: .now(), repeating: .nanoseconds(nanos), leeway: .milliseconds(50))
        timer.setEventHandler(handler: publish)
        timer.resume()
        try? await gracefulShutdown()
        timer.cancel()
        // The final state (disconnected, trip closed) is what readers see after we exit.
        queue.sync { publish() }
    }
}
