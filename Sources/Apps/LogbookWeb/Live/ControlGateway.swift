// SPDX-License-Identifier: MIT
internal import Dispatch
internal import HTTPTypes
internal import LogbookControl
package import LogbookCore

/// Sends commands (trip start/stop, every entry) to logbookd through the control socket.
/// Entries go to the journal directly only when no daemon answers (``deliver(_:)``), as the
/// CLI's do.
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

    /// What became of a request that may be recorded without the daemon.
    package enum Delivery: Sendable {
        /// logbookd answered `{"ok":true,…}`.
        case replied(JSONValue)
        /// Nothing listens on the socket (the daemon is not running): why.
        case noDaemon(String)
    }

    /// Sends `request` if logbookd listens; ``Delivery/noDaemon(_:)`` when it cannot even be
    /// connected to. Once connected, a refusal or a lost reply is an error, never a retry
    /// elsewhere (the daemon may have recorded it).
    package func deliver(_ request: JSONValue, timeout: Double = 10) async throws(APIError) -> Delivery {
        let path = socketPath
        let result: Result<Delivery, ControlClient.Failure> = await withCheckedContinuation { done in
            queue.async {
                let client: ControlClient
                do throws(ControlClient.Failure) {
                    client = try ControlClient(socketPath: path, timeout: 2)
                } catch {
                    return done.resume(returning: .success(.noDaemon(error.description)))
                }
                do throws(ControlClient.Failure) {
                    done.resume(returning: .success(.replied(try client.call(request, timeout: timeout).0)))
                } catch {
                    done.resume(returning: .failure(error))
                }
            }
        }
        switch result {
        case .success(let delivery): return delivery
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
