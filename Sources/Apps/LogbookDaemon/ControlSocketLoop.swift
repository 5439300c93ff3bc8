// SPDX-License-Identifier: MIT
internal import LogbookControl
internal import LogbookCore
internal import Logging
#if canImport(Glibc)
    internal import Glibc
#endif

/// The `poll(2)` loop of the control socket: accepts clients, reads their requests,
/// answers them and streams live-state publications to watchers.
///
/// Lives on the server thread only. Every fd is non-blocking and every buffer bounded, so
/// no client, however slow or hostile, can stall the loop or grow the daemon's memory.
final class ControlSocketLoop {
    private let server: ControlSocketServer
    private let listener: ControlSocketListener
    private let handler: any ControlHandler
    private let commands: [String: ControlCommand]
    private let updates: LiveUpdates
    private let jobs: AsyncStream<ControlSocketServer.Job>.Continuation
    private let limits: ControlSocketService.Limits
    private let logger: Logger
    private var clients: [UInt64: ControlConnection] = [:]
    private var lastClientID: UInt64 = 0
    /// The generation of the last publication sent to watchers.
    private var generation: UInt64
    private var chunk = [UInt8](repeating: 0, count: 16_384)
    /// Out of fds: stop polling the listener for a moment instead of spinning on it.
    private var acceptPaused = false
    /// Warnings any local process can provoke at will: at most one line a second each.
    private var refusedLog = LogRateLimiter()
    private var slowReaderLog = LogRateLimiter()
    private var acceptErrorLog = LogRateLimiter()

    init(
        server: ControlSocketServer, listener: ControlSocketListener, handler: any ControlHandler, updates: LiveUpdates,
        jobs: AsyncStream<ControlSocketServer.Job>.Continuation, limits: ControlSocketService.Limits, logger: Logger
    ) {
        self.server = server
        self.listener = listener
        self.handler = handler
        self.commands = Dictionary(handler.commands.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        self.updates = updates
        self.jobs = jobs
        self.limits = limits
        self.logger = logger
        generation = updates.latest?.generation ?? 0
    }

    /// Serves until the server is stopped; returns why it failed, or nil.
    func run() -> String? {
        let token = updates.subscribe { [server] in server.wake() }
        defer {
            updates.unsubscribe(token)
            for client in clients.values { close(client.fd) }
            clients = [:]
        }
        var fds: [pollfd] = []
        var ids: [UInt64] = []
        while !server.isStopping {
            fds.removeAll(keepingCapacity: true)
            ids.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: listener.fd, events: acceptPaused ? 0 : Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: server.wakeFD, events: Int16(POLLIN), revents: 0))
            for (id, client) in clients {
                guard let events = client.pollEvents else { continue }
                fds.append(pollfd(fd: client.fd, events: events, revents: 0))
                ids.append(id)
            }
            let flushIn = [refusedLog, slowReaderLog, acceptErrorLog].compactMap { $0.millisecondsUntilFlush() }.min()
            let ready = poll(&fds, nfds_t(fds.count), acceptPaused ? min(100, flushIn ?? 100) : flushIn ?? -1)
            flushRateLimitedWarnings()
            if ready < 0 {
                if errno == EINTR { continue }
                return "poll: \(errnoText(errno))"
            }
            acceptPaused = false
            if fds[1].revents != 0 { server.drainWake() }
            deliverCompletions()
            deliverPublication()
            // Clients first: those that left free their slots before new ones are counted.
            for (index, id) in ids.enumerated() where fds[index + 2].revents != 0 {
                serve(id, events: fds[index + 2].revents)
            }
            if fds[0].revents & Int16(POLLNVAL | POLLERR) != 0 { return "the listening socket failed" }
            if fds[0].revents & Int16(POLLIN) != 0 { acceptClients() }
        }
        return nil
    }

    // MARK: Clients

    private func acceptClients() {
        while true {
            let fd = accept(listener.fd, nil, nil)
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED, EPROTO: continue
                case EAGAIN, EWOULDBLOCK: return
                default:
                    if let held = acceptErrorLog.admit() {
                        logger.error("control socket: accept failed", metadata: ["error": "\(errnoText(errno))", "suppressed": "\(held)"])
                    }
                    acceptPaused = true
                    return
                }
            }
            // accept4 is not visible from Swift; the daemon never execs, so CLOEXEC can come late.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            guard clients.count < limits.maxClients else {
                // A fresh socket's buffer always takes one short line.
                let line = ControlReply.error("too_many_clients", "at most \(limits.maxClients) clients", id: nil)
                _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
                close(fd)
                if let held = refusedLog.admit() {
                    logger.warning("control socket: client refused, too many clients", metadata: ["limit": "\(limits.maxClients)", "suppressed": "\(held)"])
                }
                continue
            }
            lastClientID += 1
            clients[lastClientID] = ControlConnection(
                id: lastClientID, fd: fd, maxLine: limits.maxLineBytes, outboundLimit: limits.outboundBytes)
        }
    }

    private func serve(_ id: UInt64, events: Int16) {
        guard let client = clients[id] else { return }
        if events & Int16(POLLNVAL) != 0 { client.peerGone = true }
        if events & Int16(POLLOUT) != 0 { _ = client.flush() }
        if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            // After a hang-up, read what is left (a request sent just before closing still runs).
            let drain = events & Int16(POLLHUP | POLLERR) != 0
            repeat {
                guard client.read(into: &chunk) == .data else { break }
                process(client)
            } while drain && client.wantsInput && clients[id] != nil
            if drain { client.peerGone = true }
        }
        process(client)
    }

    /// Handles the complete lines a client has sent, then closes it if it is done.
    private func process(_ client: ControlConnection) {
        while !client.awaitingReply, clients[client.id] != nil, let input = client.nextInput() {
            switch input {
            case .tooLong: reply(client, ControlReply.error("too_long", "a request line is limited to \(limits.maxLineBytes) bytes", id: nil))
            case .line(let line): handle(line, from: client)
            }
        }
        if client.isDone { drop(client) }
    }

    private func drop(_ client: ControlConnection) {
        guard clients.removeValue(forKey: client.id) != nil else { return }
        if client.isWatching { updates.watcherRemoved() }
        close(client.fd)
    }

    /// Queues `line` and sends what the socket takes; disconnects a client that lets its
    /// replies pile up.
    private func reply(_ client: ControlConnection, _ line: [UInt8]) {
        guard !client.peerGone else { return }
        guard client.enqueue(line) else {
            if let held = slowReaderLog.admit() {
                logger.warning(
                    "control socket: client not reading its replies; disconnecting",
                    metadata: [
                        "client": "\(client.id)", "pending_bytes": "\(client.pendingOutput)", "watching": "\(client.isWatching)",
                        "suppressed": "\(held)",
                    ])
            }
            drop(client)
            return
        }
        _ = client.flush()
    }

    /// The summary lines of rate-limited warnings whose second has passed.
    private func flushRateLimitedWarnings() {
        if let n = refusedLog.flush() {
            logger.warning("control socket: more clients refused, too many clients", metadata: ["limit": "\(limits.maxClients)", "suppressed": "\(n)"])
        }
        if let n = slowReaderLog.flush() {
            logger.warning("control socket: more clients not reading their replies disconnected", metadata: ["suppressed": "\(n)"])
        }
        if let n = acceptErrorLog.flush() {
            logger.error("control socket: accept kept failing", metadata: ["suppressed": "\(n)"])
        }
    }

    // MARK: Requests

    private func handle(_ raw: [UInt8], from client: ControlConnection) {
        let request: ControlRequest
        switch ControlRequest.parse(raw[...]) {
        case .blank: return
        case .invalid(let error, let id): return reply(client, ControlReply.error(error, id: id))
        case .request(let r): request = r
        }
        let id = request.id
        switch request.command {
        case "status":
            reply(client, ControlReply.line(handler.currentState(), id: id))
        case "watch":
            if !client.isWatching { updates.watcherAdded() }
            client.watchID = .some(id)
            reply(client, ControlReply.line(handler.currentState(), id: id))
        default:
            if let error = request.problem(in: commands) { return reply(client, ControlReply.error(error, id: id)) }
            let job = ControlSocketServer.Job(connection: client.id, command: request.command, request: request.body, id: id)
            if case .terminated = jobs.yield(job) {
                return reply(client, ControlReply.error("unavailable", "the daemon is shutting down", id: id))
            }
            client.awaitingReply = true
        }
    }

    /// Sends the handler's replies and resumes those connections' queued requests.
    private func deliverCompletions() {
        for (id, line) in server.takeCompletions() {
            guard let client = clients[id] else { continue }
            client.awaitingReply = false
            reply(client, line)
            process(client)
        }
    }

    /// Sends the newest publication, serialized once, to every watcher.
    private func deliverPublication() {
        guard let latest = updates.latest, latest.generation != generation else { return }
        generation = latest.generation
        let watchers = clients.values.filter { $0.isWatching && !$0.peerGone }
        guard !watchers.isEmpty else { return }
        let plain = ControlReply.line(latest.document, id: nil)
        for client in watchers {
            if case .some(.some(let id)) = client.watchID {
                reply(client, ControlReply.line(latest.document, id: id))
            } else {
                reply(client, plain)
            }
            if client.isDone { drop(client) }
        }
    }
}
