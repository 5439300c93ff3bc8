// SPDX-License-Identifier: MIT
internal import LogbookCore
#if canImport(Glibc)
    internal import Glibc
#endif

/// One client of the control socket: its byte buffers and request state.
///
/// Confined to the server thread. Both buffers are bounded, so a client can cost the
/// daemon at most `maxLine + chunk` bytes in and `outboundLimit` bytes out.
final class ControlConnection {
    /// What the input holds next.
    enum Input {
        case line([UInt8])
        /// A line over the limit; its bytes are (being) discarded.
        case tooLong
    }

    /// The outcome of a read.
    enum ReadResult { case data, wouldBlock, eof, failed }

    let id: UInt64
    let fd: Int32
    private let maxLine: Int
    private let outboundLimit: Int
    private var input: [UInt8] = []
    /// Where the unread part of `input` begins (lines are consumed without shifting bytes).
    private var inputStart = 0
    /// Dropping the rest of an over-long line, up to its newline.
    private var discarding = false
    private var output: [UInt8] = []
    private var outputStart = 0
    /// A write command is with the handler; later requests wait so replies stay in order.
    var awaitingReply = false
    /// Set by `watch`: the `id` to echo, `.some(nil)` for none.
    var watchID: JSONValue?? = nil
    /// The client shut down its sending side (EOF): replies still go out.
    var inputClosed = false
    /// The client is gone (hang-up, error, failed send): nothing more goes out.
    var peerGone = false

    init(id: UInt64, fd: Int32, maxLine: Int, outboundLimit: Int) {
        self.id = id
        self.fd = fd
        self.maxLine = maxLine
        self.outboundLimit = outboundLimit
    }

    var isWatching: Bool { watchID != nil }
    var pendingOutput: Int { output.count - outputStart }

    /// Whether to read: not after EOF, nor while a reply is outstanding and a line's worth is queued.
    var wantsInput: Bool { !inputClosed && !peerGone && (!awaitingReply || input.count - inputStart < maxLine) }

    /// The `poll(2)` events to wait for; nil to leave the fd out (a hung-up fd would spin).
    var pollEvents: Int16? {
        if peerGone { return nil }
        var events: Int32 = 0
        if wantsInput { events |= Int32(POLLIN) }
        if pendingOutput > 0 { events |= Int32(POLLOUT) }
        return Int16(events)
    }

    /// Nothing more to do: the client left, or closed its side and has all its replies
    /// (a watcher that only closed its side keeps receiving updates).
    var isDone: Bool {
        if awaitingReply { return false }
        if peerGone { return true }
        return inputClosed && pendingOutput == 0 && !isWatching
    }

    /// Reads what is available (one `chunk`'s worth) into the input buffer.
    func read(into chunk: inout [UInt8]) -> ReadResult {
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                ingest(chunk[0..<n])
                return .data
            }
            if n == 0 {
                inputClosed = true
                return .eof
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default:
                peerGone = true
                return .failed
            }
        }
    }

    /// Appends received bytes, dropping those of an over-long line.
    func ingest(_ bytes: ArraySlice<UInt8>) {
        var bytes = bytes
        if discarding {
            guard let newline = bytes.firstIndex(of: 10) else { return }
            discarding = false
            bytes = bytes[(newline + 1)...]
        }
        input.append(contentsOf: bytes)
    }

    /// The next complete line (without its newline), `.tooLong`, or nil when none is complete.
    func nextInput() -> Input? {
        if let newline = input[inputStart...].firstIndex(of: 10) {
            let line = Array(input[inputStart..<newline])
            inputStart = newline + 1
            if inputStart == input.count {
                input.removeAll(keepingCapacity: input.capacity <= 16_384)
                inputStart = 0
            }
            return line.count > maxLine ? .tooLong : .line(line)
        }
        if inputStart > 0 {
            input.removeFirst(inputStart)
            inputStart = 0
        }
        guard input.count > maxLine else { return nil }
        // No newline in sight: drop what we have and the rest of the line as it arrives.
        input = []
        discarding = true
        return .tooLong
    }

    /// Queues a reply line; false when that would exceed the outbound limit.
    func enqueue(_ line: [UInt8]) -> Bool {
        guard pendingOutput + line.count <= outboundLimit else { return false }
        output.append(contentsOf: line)
        return true
    }

    /// Sends what the socket takes without blocking; false when the client is gone.
    func flush() -> Bool {
        while outputStart < output.count {
            let n = output.withUnsafeBytes { raw in
                send(fd, raw.baseAddress?.advanced(by: outputStart), raw.count - outputStart, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if n > 0 {
                outputStart += n
                continue
            }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK { break }
            peerGone = true
            output = []
            outputStart = 0
            return false
        }
        if outputStart == output.count {
            // Give a large buffer back once drained: idle clients should cost nothing.
            output.removeAll(keepingCapacity: output.capacity <= 16_384)
            outputStart = 0
        } else if outputStart >= 65_536 {
            output.removeFirst(outputStart)
            outputStart = 0
        }
        return true
    }
}
