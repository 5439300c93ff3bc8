// SPDX-License-Identifier: MIT
internal import NIOCore
internal import NIOHTTPTypes
internal import Synchronization

/// Deadlines and a per-address limit on every connection, so that slow or idle clients
/// (slowloris) cannot hold the app's sockets: a NIO handler after the HTTP decoder.
///
/// - **header**: a request's head must be complete within ``Limits/headerTimeout`` of the
///   connection opening (a trickle of header bytes does not extend it);
/// - **body**: its body within ``Limits/bodyTimeout`` of the head;
/// - **idle**: a kept-alive connection with no new request is closed after
///   ``Limits/idleTimeout``;
/// - while a response is being written (an event stream can last hours) nothing expires;
/// - at most ``Limits/perAddress`` connections per client address: more are closed at once.
///
/// The header and idle deadlines fall at a random point of their last quarter, so connections
/// opened together (an attack's burst) do not all expire together and come back as a burst.
///
/// The total is capped by Hummingbird's `MaximumAvailableConnections` (accepting pauses at
/// the cap), which `buildApplication` sets below the process's file limit.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    struct Limits: Sendable {
        var headerTimeout: TimeAmount = .seconds(10)
        var bodyTimeout: TimeAmount = .seconds(30)
        var idleTimeout: TimeAmount = .seconds(60)
        var perAddress = 256
    }

    /// Open connections per address, shared by every connection's handler.
    final class Registry: Sendable {
        private let counts = Mutex<[String: Int]>([:])

        /// Counts one more connection from `address`; false when it is one too many.
        func open(_ address: String, limit: Int) -> Bool {
            counts.withLock { c in
                let n = c[address, default: 0]
                guard n < limit else { return false }
                c[address] = n + 1
                return true
            }
        }

        func close(_ address: String) {
            counts.withLock { c in
                let n = c[address, default: 1] - 1
                c[address] = n > 0 ? n : nil
            }
        }

        /// Connections open now (tests, logs).
        var total: Int { counts.withLock { $0.values.reduce(0, +) } }
    }

    private let limits: Limits
    private let registry: Registry
    private var address: String?
    private var deadline: Scheduled<Void>?
    /// Requests whose response has not ended; whether a body is being read.
    private var inFlight = 0
    private var readingBody = false

    init(limits: Limits, registry: Registry) {
        self.limits = limits
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { opened(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        opened(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { closed() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            inFlight += 1
            readingBody = true
            expire(context, after: limits.bodyTimeout)
        case .body:
            break
        case .end:
            readingBody = false
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            inFlight = max(0, inFlight - 1)
            if inFlight == 0, !readingBody { expire(context, after: Self.spread(limits.idleTimeout)) }
        }
        context.write(data, promise: promise)
    }

    private func opened(_ context: ChannelHandlerContext) {
        guard address == nil else { return }
        let peer = context.channel.remoteAddress?.ipAddress ?? "unknown"
        guard registry.open(peer, limit: limits.perAddress) else {
            context.close(promise: nil)
            return
        }
        address = peer
        expire(context, after: Self.spread(limits.headerTimeout))
    }

    private func closed() {
        deadline?.cancel()
        deadline = nil
        if let address { registry.close(address) }
        address = nil
    }

    /// A deadline in the last quarter of `limit`, at random.
    static func spread(_ limit: TimeAmount) -> TimeAmount {
        .nanoseconds(limit.nanoseconds - Int64.random(in: 0...(limit.nanoseconds / 4)))
    }

    /// Closes the connection after `delay` unless something resets the deadline first.
    private func expire(_ context: ChannelHandlerContext, after delay: TimeAmount) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: delay) { channel.close(promise: nil) }
    }
}

@available(*, unavailable)
extension ConnectionGuard: Sendable {}
