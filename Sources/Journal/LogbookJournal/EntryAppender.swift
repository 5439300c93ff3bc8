// SPDX-License-Identifier: MIT
package import LogbookCore
package import LogbookRecords
internal import Logging

/// Appends validated entries to the journal **without a daemon**: the CLI's path when
/// logbookd is not running. It takes the journal's writer lock for the moment of the write
/// (so it needs the signing key: root or the `logbook` user), appends and closes, which
/// waits until the entries are durable.
package enum EntryAppender {
    /// Why the direct write did not happen.
    package enum Failure: Error, CustomStringConvertible {
        /// Another writer (logbookd, or another `logbook` writing) holds the lock.
        case locked(String)
        /// Anything else: permissions, the key, I/O.
        case failed(String)

        package var description: String {
            switch self {
            case .locked(let why), .failed(let why): why
            }
        }
    }

    /// Appends `entries` in order; returns their sequence numbers and the entries as appended
    /// (a split with its new trip number) once durable. Retries the lock for `lockWait`
    /// seconds (another CLI writer holds it for a few ms).
    package static func append(
        _ entries: [RecordEntry], recordedAt: GPSTime, journalDirectory: String, stateDirectory: String, lockWait: Double = 5
    ) async throws(Failure) -> [(sequence: UInt64, entry: RecordEntry)] {
        let writer = try await openWriter(journalDirectory: journalDirectory, stateDirectory: stateDirectory, lockWait: lockWait)
        var appended: [(UInt64, RecordEntry)] = []
        do {
            for entry in entries {
                let numbered = entry.numbered(by: writer)
                appended.append((try writer.append(.entry(UserEntry(numbered, recordedAt: recordedAt))), numbered))
            }
            try await writer.close()
        } catch {
            try? await writer.close()
            throw .failed("the entry was not recorded: \(error)")
        }
        return appended
    }

    /// Takes the journal's writer lock (retrying for `lockWait` seconds while another
    /// short-lived writer holds it) and opens a writer that commits every 50 ms: the CLI's
    /// direct path for entries and imports. The caller must `close()` it.
    package static func openWriter(journalDirectory: String, stateDirectory: String, lockWait: Double = 5) async throws(Failure) -> JournalWriter {
        let journal = JournalConfiguration(directory: journalDirectory, stateDirectory: stateDirectory, commitInterval: .milliseconds(50))
        var waited = 0.0
        while true {
            do {
                return try JournalWriter.open(journal, logger: Logger(label: "logbook.entries", factory: { _ in SwiftLogNoOpLogHandler() }))
            } catch JournalError.locked(let directory, let pid) {
                guard waited < lockWait else {
                    throw .locked("another process\(pid.map { " (pid \($0))" } ?? "") holds the journal \(directory)")
                }
                try? await Task.sleep(for: .milliseconds(50))
                waited += 0.05
            } catch {
                throw .failed(Self.explain(error, directory: journalDirectory))
            }
        }
    }

    private static func explain(_ error: any Error, directory: String) -> String {
        let text = "\(error)"
        let denied = text.contains("ermission denied") || text.contains("EACCES") || text.contains("Operation not permitted")
        return denied
            ? "cannot write the journal \(directory) (\(text)): without a running logbookd, writing needs root or the logbook user (sudo -u logbook logbook …)"
            : "cannot write the journal \(directory): \(text)"
    }
}
