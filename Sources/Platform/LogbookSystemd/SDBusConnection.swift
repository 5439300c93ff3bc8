// SPDX-License-Identifier: MIT
internal import CLogbookSystemd
#if canImport(Glibc)
    internal import Glibc
#endif

/// An sd-bus connection driven by a monitor's loop thread.
///
/// Thread-confined (not Sendable): opened, used and closed on one loop thread. ``run(control:onRequest:)``
/// polls the bus descriptor together with the loop's wake eventfd, so `stop()` interrupts it
/// at once; sd-bus never blocks the thread except inside ``call``'s bounded synchronous calls.
final class SDBusConnection {
    let bus: OpaquePointer
    private var slots: [OpaquePointer] = []

    /// Synchronous calls wait at most this long (sd-bus's default is 25 s): a hung BlueZ or
    /// logind must not keep the loop thread from noticing `stop()` for long.
    static let callTimeoutUsec: UInt64 = 2_000_000

    /// Why ``run`` returned.
    enum Exit { case stopped, disconnected(String) }

    /// Connects; throws a description of the failure.
    init(_ endpoint: DBusEndpoint) throws(SDBusError) {
        var b: OpaquePointer?
        let r: Int32
        switch endpoint {
        case .system: r = csd_bus_open(nil, &b)
        case .address(let address): r = csd_bus_open(address, &b)
        }
        guard r >= 0, let b else { throw SDBusError("connect to \(endpoint)", code: r) }
        bus = b
    }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
        sd_bus_flush_close_unref(bus)
    }

    /// Adds a match rule; `handler` runs on this thread for each matching message.
    /// `target` is passed back unretained: it must outlive this connection.
    func addMatch(_ rule: String, target: AnyObject, _ handler: sd_bus_message_handler_t) throws(SDBusError) {
        var slot: OpaquePointer?
        let r = sd_bus_add_match(bus, &slot, rule, handler, Unmanaged.passUnretained(target).toOpaque())
        guard r >= 0, let slot else { throw SDBusError("add match \(rule)", code: r) }
        slots.append(slot)
    }

    /// Calls a method without arguments; `read` parses the reply before it is freed.
    func call<T>(
        destination: String, path: String, interface: String, member: String,
        read: (OpaquePointer) -> T
    ) throws(SDBusError) -> T {
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let r = csd_bus_call_noargs(bus, destination, path, interface, member, Self.callTimeoutUsec, &error, &reply)
        guard r >= 0, let reply else { throw SDBusError("\(interface).\(member)", code: r, error: error) }
        defer { sd_bus_message_unref(reply) }
        return read(reply)
    }

    /// Processes messages and waits until stop is posted or the connection breaks.
    /// `onIdle` runs after each round of processing with the requests posted since the last
    /// round (often none); it may make synchronous calls. `tick()` bounds each wait.
    func run(control: LoopControl, tick: () -> Duration? = { nil }, onIdle: (LoopRequest) -> Void) -> Exit {
        var pending: LoopRequest = []
        while !control.stopRequested {
            var r: Int32
            repeat { r = sd_bus_process(bus, nil) } while r > 0 && !control.stopRequested
            if r < 0 { return .disconnected(errnoText(r)) }
            if control.stopRequested { break }
            onIdle(pending)
            pending = []
            let busEvents = sd_bus_get_events(bus)
            if busEvents < 0 { return .disconnected(errnoText(busEvents)) }
            var fds = [
                pollfd(fd: control.wakeFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: sd_bus_get_fd(bus), events: Int16(busEvents), revents: 0),
            ]
            let n = pollRetrying(&fds, timeoutMs: timeoutMs(tick: tick()))
            if n < 0 { return .disconnected("poll: \(errnoText(n))") }
            if fds[0].revents != 0 { pending = control.take().subtracting(.stop) }
        }
        return .stopped
    }

    /// The poll timeout: sd-bus's next deadline (method-call timeouts), capped by `tick`.
    private func timeoutMs(tick: Duration?) -> Int32 {
        var limit: Int32 = tick.map(pollMilliseconds) ?? -1
        var usec: UInt64 = 0
        if sd_bus_get_timeout(bus, &usec) >= 0, usec != UInt64.max {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nowUsec = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
            let waitMs = usec > nowUsec ? Int32(clamping: (usec - nowUsec + 999) / 1000) : 0
            limit = limit < 0 ? waitMs : min(limit, waitMs)
        }
        return limit
    }
}

/// A failed sd-bus step, with the D-Bus error name when there was one.
struct SDBusError: Error, CustomStringConvertible {
    let description: String
    /// The D-Bus error name (`org.freedesktop.DBus.Error.ServiceUnknown`), if any.
    let name: String?

    init(_ what: String, code: Int32, error: sd_bus_error? = nil) {
        name = error?.name.map { String(cString: $0) }
        var text = "\(what): \(errnoText(code))"
        if let name = error?.name { text += " (\(String(cString: name))" }
        if let message = error?.message { text += ": \(String(cString: message))" }
        if error?.name != nil { text += ")" }
        description = text
    }
}
