// SPDX-License-Identifier: MIT
import ArgumentParser
import Foundation
import LogbookCore

/// Reads `live.json` from the runtime directory.
struct LiveStateReader {
    let path: String

    init(runtimeDirectory: String) { path = runtimeDirectory + "/live.json" }

    /// The parsed document and its raw text.
    func read() throws -> (JSONValue, String) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError.unavailable("logbookd is not running: no live state at \(path)")
        }
        let text = String(decoding: data, as: UTF8.self)
        do {
            return (try JSONValue.parse(Array(data)), text.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            throw CLIError.unavailable("live state at \(path) is unreadable: \(error)")
        }
    }

    /// Seconds since the document's `updated_at`.
    static func age(of doc: JSONValue) -> Double? {
        guard let text = doc["updated_at"]?.stringValue, let t = ISO8601.parse(text) else { return nil }
        return Date().timeIntervalSince1970 - t.seconds
    }
}

/// Errors that end a command with one of the documented exit codes.
enum CLIError: Error, CustomStringConvertible {
    case unavailable(String)
    case problem(String)
    case usage(String)
    /// A bad configuration file or setting (exit 78).
    case config(String)

    var description: String {
        switch self {
        case .unavailable(let s), .problem(let s), .usage(let s): s
        case .config(let s): "config error: \(s)"
        }
    }

    var exitCode: ExitCode {
        switch self {
        case .unavailable: ExitCodes.unavailable
        case .problem: ExitCodes.problem
        case .usage: ExitCodes.usage
        case .config: ExitCodes.config
        }
    }
}

/// Runs `body`, turning a ``CLIError`` into its message on stderr and its exit code.
func withExitCodes(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as CLIError {
        FileHandle.standardError.write(Data("logbook: \(error)\n".utf8))
        throw error.exitCode
    }
}
