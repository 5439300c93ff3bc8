// SPDX-License-Identifier: MIT
internal import Dispatch
internal import HTTPTypes
internal import LogbookControl
package import LogbookCore

/// Sends write commands (trip start/stop, fuel logs, classification) to logbookd through
/// the control socket. The web app never writes the journal itself.
///
/// ``ControlClient`` blocks, so each call runs on a Dispatch queue of its own, never on the
/// Swift concurrency pool; a connection per call (writes are rare, one per button press).
package struct ControlGateway: Sendable {
    package let socketPath: String
    private let queue = DispatchQueue(label: "logbook-web.control", attributes: .concurrent)

    package init(socketPath: String) { self.socketPath = socketPath }

    /// Sends `request` and returns the daemon's `{"ok":true,…}` reply.
    ///
    /// - Throws: ``APIError``: 503 when the daemon is not reachable, 409/422/400 for the
    ///   daemon's refusals (`no_trip`, `unknown_vehicle`, `bad_request`…).
    package func call(_ request: JSONValue, timeout: Double = 10) async throws(APIError) -> JSONValue {
        let path = socketPath
        let result: Result<JSONValue, ControlClient.Failure> = await withCheckedContinuation { done in
            queue.async {
                do throws(ControlClient.Failure) {
                    let client = try ControlClient(socketPath: path, timeout: 2)
                    done.resume(returning: .success(try client.call(request, timeout: timeout).0))
                } catch {
                    done.resume(returning: .failure(error))
                }
            }
        }
        switch result {
        case .success(let reply): return reply
        case .failure(.unreachable(let why)): throw APIError(.serviceUnavailable, "daemon_unreachable", why)
        case .failure(.refused(let code, let message)): throw Self.error(code: code, message: message)
        }
    }

    /// The HTTP status for a daemon's error code.
    static func error(code: String, message: String) -> APIError {
        switch code {
        case "no_trip", "refused", "trip_running", "conflict": APIError(.conflict, code, message)
        case "unknown_vehicle", "unknown_trip", "not_found": APIError(.notFound, code, message)
        case "unavailable": APIError(.serviceUnavailable, code, message)
        case "unknown_command": APIError(.notFound, "unsupported", "this logbookd does not offer that command (\(message))")
        default: APIError(.unprocessableContent, code, message)
        }
    }
}
