// SPDX-License-Identifier: MIT
import Foundation
import LogbookStore

/// How every `logbook` command opens the trip index: open (replacing a foreign or damaged
/// file), catch up with the journal, and turn failures into one-line errors and exit codes.
/// The export commands and the web app open it the same way.
enum IndexAccess {
    /// Opens the index at the configured path and brings it up to date with the journal.
    ///
    /// Notes for a person go to stderr: the file was replaced, or another process holds the
    /// write lock (then the index is shown as it is). Throws ``CLIError`` (exit 1).
    static func open(_ settings: ReaderSettings, catchUp: Bool = true) throws -> TripIndex {
        let index = try opened(settings)
        guard catchUp else { return index }
        do {
            _ = try index.catchUp()
            return index
        } catch .busy {
            note("another process is updating the trip index; showing what it holds")
            return index
        } catch .damaged(let why) {
            return try rebuilt(settings, because: why)
        } catch {
            throw CLIError.problem(error.description)
        }
    }

    /// Runs `body` on the caught-up index; when it meets damage (a chunk failing its CRC, a
    /// corrupt page) the index is rebuilt and `body` runs once more.
    static func withIndex<T>(_ settings: ReaderSettings, _ body: (TripIndex) throws -> T) throws -> T {
        let index = try open(settings)
        do {
            return try body(index)
        } catch TripIndexError.damaged(let why) {
            try? index.close()
            return try body(try rebuilt(settings, because: why))
        } catch let error as TripIndexError {
            throw CLIError.problem(error.description)
        }
    }

    private static func opened(_ settings: ReaderSettings) throws -> TripIndex {
        do {
            let index = try TripIndex.open(path: settings.indexPath, journalDirectory: settings.journalDirectory, options: settings.indexOptions)
            if let why = index.replacedBecause { note("replaced the trip index at \(index.path): \(why)") }
            return index
        } catch {
            throw CLIError.problem(error.description)
        }
    }

    private static func rebuilt(_ settings: ReaderSettings, because why: String) throws -> TripIndex {
        note("the trip index is damaged (\(why)); rebuilding it")
        do {
            let index = try TripIndex.replace(path: settings.indexPath, journalDirectory: settings.journalDirectory, options: settings.indexOptions)
            _ = try index.rebuild()
            return index
        } catch {
            throw CLIError.problem(error.description)
        }
    }

    static func note(_ text: String) {
        FileHandle.standardError.write(Data("logbook: \(text)\n".utf8))
    }
}
