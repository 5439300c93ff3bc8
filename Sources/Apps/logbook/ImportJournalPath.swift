// SPDX-License-Identifier: MIT
import LogbookControl
import LogbookCore
import LogbookJournal
import LogbookSettings

/// Where `logbook import` writes: logbookd's control socket when it runs (the daemon checks
/// each `import.*` request and answers once durable), else the journal itself, under its
/// writer lock, through the same ``ImportTripWriter`` the daemon uses.
final class ImportJournalPath {
    private let client: ControlClient?
    private let writer: JournalWriter?
    private let local: ImportTripWriter?

    var throughDaemon: Bool { client != nil }

    private init(client: ControlClient?, writer: JournalWriter?) {
        self.client = client
        self.writer = writer
        self.local = writer.map { ImportTripWriter(journal: $0, wallClock: GarageAccess.wallClock) }
    }

    /// Connects to logbookd, else takes the journal's writer lock.
    static func open(_ settings: ReaderSettings) async throws -> ImportJournalPath {
        if let client = try? ControlClient(socketPath: settings.daemon.controlSocketPath) {
            return ImportJournalPath(client: client, writer: nil)
        }
        do {
            return ImportJournalPath(client: nil, writer: try await EntryAppender.openWriter(journalDirectory: settings.journalDirectory, stateDirectory: settings.stateDirectory))
        } catch {
            throw CLIError.problem(error.description)
        }
    }

    /// Sends one request; the reply's members.
    func call(_ request: [(String, JSONValue)]) async throws -> JSONValue {
        let command = request.first { $0.0 == "cmd" }?.1.stringValue ?? ""
        if let client {
            do {
                return try client.call(.object(request), timeout: 60).0
            } catch {
                throw CLIError.problem("logbookd refused \(command): \(error.description)")
            }
        }
        guard let local else { throw CLIError.problem("no journal path") }
        switch await local.execute(command, .object(request)) {
        case .success(let reply): return reply
        case .failure(let e): throw CLIError.problem("\(command) refused: \(e.message) (\(e.code))")
        }
    }

    /// Closes the journal (durable when it returns) on the direct path.
    func close() async throws {
        guard let writer else { return }
        do {
            try await writer.close()
        } catch {
            throw CLIError.problem("the journal did not close cleanly: \(error)")
        }
    }
}
