// SPDX-License-Identifier: MIT
package import LogbookControl
package import Logging
internal import ServiceLifecycle

/// A swift-service-lifecycle Service that owns the server thread; stops on graceful shutdown; removes the socket file on exit.
///
/// `run()` binds the socket (or adopts the one systemd passed), starts the server thread
/// and runs each write command's ``ControlHandler/execute(_:_:)`` as a child task of a
/// task group it owns: the server thread never waits for the handler, and cancelling the
/// service cancels the commands in flight. The protocol is described at ``ControlHandler``.
package struct ControlSocketService: Service {
    /// Bounds on what clients may cost the daemon.
    package struct Limits: Sendable {
        /// Connections beyond this are told `too_many_clients` and closed.
        package var maxClients = 64
        /// A longer request line is answered `too_long` and discarded.
        package var maxLineBytes = 64 * 1024
        /// Replies waiting for one client; a client that lets more pile up is disconnected.
        package var outboundBytes = 256 * 1024

        package init() {}
    }

    /// `<runtime-dir>/control.sock`, where the CLI looks for the socket.
    package static func defaultPath(runtimeDirectory: String) -> String { ControlClient.socketPath(runtimeDirectory: runtimeDirectory) }

    private enum Endpoint: Sendable {
        case path(String, mode: UInt32, group: String?)
        case descriptor(Int32)
    }

    private let endpoint: Endpoint
    private let handler: any ControlHandler
    private let updates: LiveUpdates
    private let limits: Limits
    private let logger: Logger
    /// Called once the socket accepts connections (the daemon sends READY=1 after it).
    package var onListening: (@Sendable () -> Void)?

    /// Serves a socket created at `path` (a stale socket file there is replaced), with
    /// `mode` and, when given and it exists, `group`.
    package init(
        path: String, mode: UInt32 = 0o660, group: String?, handler: any ControlHandler, updates: LiveUpdates,
        logger: Logger, limits: Limits = Limits()
    ) {
        self.endpoint = .path(path, mode: mode, group: group)
        self.handler = handler
        self.updates = updates
        self.limits = limits
        self.logger = logger
    }

    /// Serves a listening socket passed by systemd socket activation; the service closes
    /// the fd on exit but leaves the socket file to systemd.
    package init(listeningDescriptor fd: Int32, handler: any ControlHandler, updates: LiveUpdates, logger: Logger, limits: Limits = Limits()) {
        self.endpoint = .descriptor(fd)
        self.handler = handler
        self.updates = updates
        self.limits = limits
        self.logger = logger
    }

    /// Serves until graceful shutdown or cancellation.
    ///
    /// - Throws: ``ControlSocketError`` when the socket cannot be set up or the server
    ///   thread fails.
    package func run() async throws {
        let listener: ControlSocketListener
        switch endpoint {
        case .path(let path, let mode, let group): listener = try ControlSocketListener.bind(path: path, mode: mode, group: group, logger: logger)
        case .descriptor(let fd): listener = try ControlSocketListener.adopt(fd)
        }
        let server: ControlSocketServer
        do {
            server = try ControlSocketServer()
        } catch {
            listener.close()
            throw error
        }
        let (jobs, sink) = AsyncStream.makeStream(of: ControlSocketServer.Job.self)
        try server.start(listener: listener, handler: handler, updates: updates, jobs: sink, limits: limits, logger: logger)
        logger.info("control socket listening", metadata: ["path": "\(listener.ownedPath ?? "fd \(listener.fd)")"])
        onListening?()
        let handler = self.handler
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                // Ends when the server thread finishes the stream, i.e. after stop().
                await withDiscardingTaskGroup { group in
                    for await job in jobs {
                        group.addTask {
                            let reply = switch await handler.execute(job.command, job.request) {
                            case .success(let result): ControlReply.success(result, id: job.id)
                            case .failure(let error): ControlReply.error(error, id: job.id)
                            }
                            server.complete(job.connection, line: reply)
                        }
                    }
                }
            } onGracefulShutdown: {
                server.stop()
            }
        } onCancel: {
            server.stop()
        }
        server.stop()
        if let failure = await server.waitUntilStopped() { throw ControlSocketError.failed(failure) }
        logger.info("control socket closed")
    }
}
