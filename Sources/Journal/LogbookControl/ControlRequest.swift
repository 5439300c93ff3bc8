// SPDX-License-Identifier: MIT
package import LogbookCore

/// One request line of the control socket, parsed and checked.
///
/// This is the protocol's framing step, shared by the daemon's server and by anything that
/// wants to check a request the way the daemon does (tests, fuzzers).
package struct ControlRequest: Sendable {
    /// The `cmd` value.
    package var command: String
    /// The whole request object.
    package var body: JSONValue
    /// The request's `id`, echoed in every reply to it.
    package var id: JSONValue?

    /// What a line turned out to be.
    package enum Parsed: Sendable {
        /// A blank line (or only `\r`): ignored, no reply.
        case blank
        case request(ControlRequest)
        /// An error reply is due; `id` is the request's when it could be read.
        case invalid(ControlError, id: JSONValue?)
    }

    /// Parses one line (without its `\n`). A trailing `\r` is ignored.
    package static func parse(_ raw: ArraySlice<UInt8>) -> Parsed {
        var line = raw
        if line.last == 13 { line = line.dropLast() }
        if line.allSatisfy({ $0 == 32 || $0 == 9 }) { return .blank }
        let request: JSONValue
        do {
            request = try JSONValue.parse(line)
        } catch {
            return .invalid(ControlError(code: "bad_request", message: "not a JSON request: \(error)"), id: nil)
        }
        guard case .object = request else {
            return .invalid(ControlError(code: "bad_request", message: "a request is a JSON object"), id: nil)
        }
        let id = request["id"]
        guard let name = request["cmd"] else {
            return .invalid(ControlError(code: "bad_request", message: "missing \"cmd\""), id: id)
        }
        guard let name = name.stringValue else {
            return .invalid(ControlError(code: "bad_request", message: "\"cmd\" must be a string"), id: id)
        }
        return .request(ControlRequest(command: name, body: request, id: id))
    }

    /// Checks the request against the write commands a server offers: `nil` when it may run.
    package func problem(in commands: [String: ControlCommand]) -> ControlError? {
        guard let command = commands[self.command] else {
            return ControlError(code: "unknown_command", message: "unknown command \"\(self.command)\"")
        }
        if let problem = command.problem(with: body) { return ControlError(code: "bad_request", message: problem) }
        return nil
    }
}
