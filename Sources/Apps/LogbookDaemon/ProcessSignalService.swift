// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookGPSD
internal import LogbookJournal
internal import Logging
internal import ServiceLifecycle
internal import UnixSignals

/// The signals besides SIGTERM/SIGINT (graceful stop, handled by the service group) and
/// SIGPIPE (ignored from the first instruction of `main`):
///
/// | signal | outcome |
/// |---|---|
/// | SIGHUP | reload the configuration; the trip goes on |
/// | SIGUSR1 | commit the journal now and log how far it is durable |
/// | SIGUSR2 | log one status line (trip, GPS, journal) |
/// | SIGALRM | ignored (logged) |
///
/// Under the async `main` logbookd once had, libdispatch parked the main thread in `sigsuspend`
/// with an empty mask, so a signal left at its default action killed the daemon whatever
/// `main` blocked (SIGHUP did, with status 129). The main thread now waits with the mask, and
/// each of these is still trapped for the daemon's whole life, whatever thread it reaches.
struct ProcessSignalService: Service {
    /// The signals this service traps.
    static let trapped: [UnixSignal] = [.sighup, .sigusr1, .sigusr2, .sigalrm]

    let events: AsyncStream<PipelineEvent>.Continuation
    let state: DaemonState
    let journal: JournalWriter
    let gpsd: HostPort
    /// With the debug stall hook on, SIGUSR1 hangs the pipeline instead (watchdog test).
    let stall: StallSwitch?
    let logger: Logger

    func run() async {
        for await signal in await UnixSignalsSequence(trapping: Self.trapped).cancelOnGracefulShutdown() {
            switch signal {
            case .sighup:
                logger.info("SIGHUP: reloading the configuration")
                events.yield(.reload)
            case .sigusr1 where stall != nil:
                logger.warning("SIGUSR1: stalling the pipeline (debug hook)")
                stall?.turnOn()
            case .sigusr1:
                do {
                    try await journal.sync()
                    logger.notice("SIGUSR1: journal committed", metadata: ["durable_seq": "\(journal.durableSequence)"])
                } catch {
                    logger.error("SIGUSR1: journal commit failed", metadata: ["error": "\(error)"])
                }
            case .sigusr2:
                let live = state.snapshot
                let j = journal.statistics
                logger.notice(
                    "SIGUSR2: \(PipelineService.describe(live, gpsd: gpsd))",
                    metadata: [
                        "fixes": "\(live.gps.fixes)", "rejected": "\(live.gps.rejected)",
                        "journal_durable_seq": "\(j.durableSequence)", "journal_pending": "\(j.pendingRecords)",
                        "journal_error": "\(j.lastError ?? "-")",
                    ])
            default:
                logger.notice("signal ignored", metadata: ["signal": "\(signal)"])
            }
        }
    }
}
