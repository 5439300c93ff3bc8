// SPDX-License-Identifier: MIT
import ArgumentParser
import Foundation
import LogbookStore

/// `logbook reindex`: rebuilds the trip index from the whole journal, in one transaction
/// (other readers keep seeing the old index until it commits; a kill leaves the old one).
struct ReindexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reindex", abstract: "Rebuild the trip index from the journal.")

    @OptionGroup var paths: PathOptions

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let index = try IndexAccess.open(settings, catchUp: false)
            let bar = ProgressDisplay(tty: isatty(STDERR_FILENO) != 0)
            let report: CatchUpReport
            do throws(TripIndexError) {
                report = try index.rebuild { bar.show($0) }
            } catch {
                bar.finish()
                throw CLIError.problem(error.description)
            }
            bar.finish()
            let status = try? index.status()
            try? index.close()  // moves the rebuilt pages from the WAL into the file
            let rate = report.seconds > 0 ? Double(report.points) / report.seconds : 0
            print(String(
                format: "reindex: %d trips, %d points, %d entries from %d records in %.2f s: %.2f M points/s",
                report.trips, report.points, report.entries, report.recordsRead, report.seconds, rate / 1e6))
            let mb = { (bytes: Int?) in String(format: "%.1f MB", Double(bytes ?? 0) / 1e6) }
            print("index: \(index.path), \(mb(status?.usedBytes)) in use (file \(mb(status?.fileSize))), through seq \(report.indexedThrough)")
        }
    }
}

/// A progress bar on a terminal (stderr, redrawn in place); plain lines every 10 % otherwise.
final class ProgressDisplay {
    let tty: Bool
    private var lastShown = -1
    private var drawn = false

    init(tty: Bool) { self.tty = tty }

    func show(_ p: IndexProgress) {
        let end = max(p.estimatedEnd, p.sequence)  // the estimate may fall short
        let fraction = end > 0 ? min(1, Double(p.sequence) / Double(end)) : 0
        let percent = Int(fraction * 100)
        if tty {
            let width = 30, filled = Int(fraction * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            FileHandle.standardError.write(Data("\r[\(bar)] \(pad(String(percent), 3, right: true)) % · \(p.points) points".utf8))
            drawn = true
        } else if percent / 10 > lastShown / 10 || lastShown < 0 {
            lastShown = percent
            print("reindex: \(percent) % (seq \(p.sequence) of about \(end)), \(p.points) points")
            fflush(nil)
        }
    }

    func finish() {
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
