// SPDX-License-Identifier: MIT
internal import Dispatch
internal import LogbookCore
internal import LogbookPOSIX
internal import LogbookSettings
internal import Logging
internal import ServiceLifecycle
internal import Synchronization
#if canImport(Glibc)
    internal import Glibc
#endif

/// Keeps `dashboard.json` current without the daemon reading any history: after a trip end
/// (the pipeline asks) or a garage entry it wrote, it runs `logbook dashboard refresh`
/// as a child process, which catches up the index and replaces the file. Requests within a
/// second are merged; one refresh runs at a time, on a Dispatch queue of its own, never in
/// the pipeline. The daemon's memory does not grow with history. Between requests it waits
/// without a timer (a parked car's battery).
final class DashboardRefresher: Service, Sendable {
    let command: String
    let environment: [String: String]
    private let runner: HookRunner
    private let queue = DispatchQueue(label: "logbook.dashboard")
    private let requests: AsyncStream<Void>
    private let requested: AsyncStream<Void>.Continuation
    private let dirty = Atomic<Bool>(false)
    /// A refresh waits on the queue (one more may run after the one running, not more).
    private let queued = Atomic<Bool>(false)

    /// Nil when no `logbook` executable sits beside `logbookd` (then nothing is refreshed).
    init?(configuration: Settings, logger: Logger) {
        guard let cli = SiblingExecutable.path("logbook") else {
            logger.notice("dashboard.json is not refreshed: no logbook executable beside logbookd")
            return nil
        }
        command = "exec '\(cli)' dashboard refresh --quiet"
        var env = ["LOGBOOK_STATE_DIR": configuration.stateDirectory, "LOGBOOK_RUNTIME_DIR": configuration.runtimeDirectory]
        if let file = configuration.configFile { env["LOGBOOKD_CONFIG"] = file }
        environment = env
        runner = HookRunner(commands: [:], timeout: 60, logger: logger)
        (requests, requested) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks for a refresh soon (a trip ended, a garage entry was written).
    func request() {
        dirty.store(true, ordering: .releasing)
        requested.yield()
    }

    func run() async throws {
        // Nothing at start (a daemon start is not a change, and it should stay light): the
        // file follows the first trip end or garage entry, or `logbook dashboard refresh`.
        // Ends at graceful shutdown (not only on cancellation): the group must not wait its
        // 10 s limit for us while the journal waits to be closed.
        for await _ in requests.cancelOnGracefulShutdown() {
            // Requests within the next second join this one (the stream keeps the newest).
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(1)) }
            if isShuttingDown() { break }
            guard dirty.exchange(false, ordering: .acquiringAndReleasing) else { continue }
            guard !queued.exchange(true, ordering: .acquiringAndReleasing) else { continue }
            queue.async { [self] in
                queued.store(false, ordering: .releasing)
                runner.execute(command, environment, "dashboard")
            }
        }
    }

    private func isShuttingDown() -> Bool { Task.isShuttingDownGracefully }
}
