// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookControl
import Foundation
import LogbookCore
import LogbookGarage

/// `logbook status [--json]`: the live state, once.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the daemon's live state (GPS, current trip).")

    @OptionGroup var paths: PathOptions

    @Flag(name: .long, help: "Print the live-state JSON (schema 1) instead of text.")
    var json = false

    /// Older than this, the daemon is taken to be gone (it writes at least every 2 s).
    static let staleAfter = 10.0

    func run() async throws {
        try await withExitCodes {
            // The socket when the daemon serves it; live.json (readable by anyone) otherwise.
            if let client = try? ControlClient(socketPath: try paths.daemonPaths().controlSocket) {
                do throws(ControlClient.Failure) {
                    let (doc, text) = try client.call(.object([("cmd", .string("status"))]))
                    print(json ? text : LiveStateFormatter.render(doc, age: LiveStateReader.age(of: doc)))
                    if !json { printUnclassified() }
                    return
                } catch .refused(let code, _) where code == "too_many_clients" {
                    // Fall back to the file below.
                } catch {
                    throw error.cliError
                }
            }
            let (doc, text) = try LiveStateReader(runtimeDirectory: try paths.daemonPaths().runtimeDirectory).read()
            let age = LiveStateReader.age(of: doc)
            print(json ? text : LiveStateFormatter.render(doc, age: age))
            if !json { printUnclassified() }
            if let age, age > Self.staleAfter {
                throw CLIError.unavailable(String(format: "the live state is %.0f s old: logbookd is not running", age))
            }
        }
    }
}

extension StatusCommand {
    /// `Unclassified: 3 unclassified trips, the oldest (trip 4) 12 days old`, from
    /// dashboard.json (rewritten after every trip end and classification), when there is one.
    func printUnclassified() {
        guard let dir = try? paths.daemonPaths().runtimeDirectory,
            let data = FileManager.default.contents(atPath: dir + "/dashboard.json"), let doc = try? JSONValue.parse(Array(data)),
            let waiting = doc["unclassified"], let count = waiting["count"]?.doubleValue
        else { return }
        guard count > 0 else { return print("Unclassified: every trip is classified") }
        let age = waiting["oldest_age_s"]?.doubleValue.map(UnclassifiedTrips.age) ?? "?"
        let oldest = waiting["oldest_trip"]?.doubleValue.map { String(Int($0)) } ?? "?"
        print("Unclassified: \(Int(count)) trip\(count == 1 ? "" : "s"), the oldest (trip \(oldest)) \(age) old")
    }
}

/// `logbook watch [--json]`: the live state as it changes, until interrupted.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Follow the live state as it changes (Ctrl-C to stop).")

    @OptionGroup var paths: PathOptions

    @Flag(name: .long, help: "Print one JSON document per update (NDJSON).")
    var json = false

    @Option(name: .long, help: "Stop after this many updates (default: run until interrupted).")
    var count: Int?

    func run() async throws {
        try await withExitCodes {
            if let client = try? ControlClient(socketPath: try paths.daemonPaths().controlSocket) {
                do throws(ControlClient.Failure) {
                    return try watch(client)
                } catch .refused(let code, _) where code == "too_many_clients" {
                    // Fall back to polling the file below.
                } catch {
                    throw error.cliError
                }
            }
            try await poll()
        }
    }

    /// Prints each document the daemon pushes (`{"cmd":"watch"}`: the current state at once,
    /// then one per publication, at least every 2 s).
    private func watch(_ client: ControlClient) throws(ControlClient.Failure) {
        try client.send(.object([("cmd", .string("watch"))]))
        var shown = 0
        while count.map({ shown < $0 }) ?? true {
            let (doc, text) = try client.readReply(timeout: StatusCommand.staleAfter)
            shown += 1
            show(doc, text)
        }
    }

    private func show(_ doc: JSONValue, _ text: String) {
        if json {
            print(text)
        } else {
            // On a terminal, redraw in place; otherwise append blocks.
            let tty = isatty(STDOUT_FILENO) == 1
            print((tty ? "\u{1B}[H\u{1B}[2J" : "") + LiveStateFormatter.render(doc, age: LiveStateReader.age(of: doc)) + (tty ? "" : "\n"))
        }
        fflush(nil)
    }

    /// Without the socket: polls live.json and prints each new `seq`.
    private func poll() async throws {
        let reader = LiveStateReader(runtimeDirectory: try paths.daemonPaths().runtimeDirectory)
        var lastSeq = -1.0
        var shown = 0
        var missing = 0
        while count.map({ shown < $0 }) ?? true {
            guard let (doc, text) = try? reader.read() else {
                missing += 1
                if missing > 20 { throw CLIError.unavailable("logbookd is not running: no live state at \(reader.path)") }
                try await Task.sleep(for: .milliseconds(250))
                continue
            }
            missing = 0
            let seq = doc["seq"]?.doubleValue ?? 0
            if seq != lastSeq {
                lastSeq = seq
                shown += 1
                show(doc, text)
            }
            try await Task.sleep(for: .milliseconds(200))
        }
    }
}
