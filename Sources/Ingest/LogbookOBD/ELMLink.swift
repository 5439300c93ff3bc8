// SPDX-License-Identifier: MIT
internal import LogbookCore
/// One open connection to an adapter: a command out, the bytes up to the `>` prompt back.
/// Owned by the source's thread (not thread-safe).
final class ELMLink {
    /// The link is gone (device unplugged, socket closed).
    struct Broken: Error {
        let reason: String
    }

    private let fd: Int32
    private var chunk = [UInt8](repeating: 0, count: 512)
    private(set) var isOpen = true

    init(fd: Int32) { self.fd = fd }

    /// Opens `endpoint`; `.missing` for a serial device that does not exist yet.
    static func open(_ endpoint: OBDEndpoint, timeout: Double) -> Result<ELMLink, OBDSystem.OpenFailure> {
        let opened: Result<Int32, OBDSystem.OpenFailure> =
            switch endpoint {
            case .serial(let device, let baud): OBDSystem.openSerial(device, baud: baud)
            case .tcp(let host, let port): OBDSystem.connectTCP(host: host, port: port, timeout: timeout)
            }
        return opened.map { ELMLink(fd: $0) }
    }

    /// Sends `command` and a carriage return, then reads until the prompt, `timeout` seconds
    /// at most, in slices so that `stopping` is honoured within 100 ms.
    func exchange(_ command: String, timeout: Double, stopping: () -> Bool) -> Result<ELMExchange, Broken> {
        if let broken = drain() { return .failure(broken) }
        guard OBDSystem.write(fd, Array(command.utf8) + [13], waitMilliseconds: 1000) else {
            return .failure(Broken(reason: "write failed"))
        }
        let deadline = monotonicMilliseconds() + Int64(timeout * 1000)
        var reply: [UInt8] = []
        while !stopping() {
            let left = deadline - monotonicMilliseconds()
            guard left > 0 else { return .success(.timedOut) }
            switch read(waitMilliseconds: Int32(min(left, 100))) {
            case .success(let bytes):
                if let prompt = bytes.firstIndex(of: 62) {
                    reply += bytes[..<prompt]
                    return .success(reply.count > ELMResponseParser.maximumReplyBytes ? .overflow : .reply(reply))
                }
                reply += bytes
                if reply.count > ELMResponseParser.maximumReplyBytes { return .success(.overflow) }
            case .failure(let broken):
                return .failure(broken)
            }
        }
        return .success(.timedOut)
    }

    /// Throws away what came after the last prompt (a late reply, a babbling adapter's
    /// chatter), for 200 ms at most, so the next reply is the next command's.
    private func drain() -> Broken? {
        let until = monotonicMilliseconds() + 200
        while monotonicMilliseconds() < until {
            switch read(waitMilliseconds: 0) {
            case .success(let bytes): if bytes.isEmpty { return nil }
            case .failure(let broken): return broken
            }
        }
        return nil
    }

    /// What arrives within `waitMilliseconds` (empty when nothing).
    private func read(waitMilliseconds: Int32) -> Result<ArraySlice<UInt8>, Broken> {
        let result = chunk.withUnsafeMutableBytes { OBDSystem.read(fd, into: $0, waitMilliseconds: waitMilliseconds) }
        switch result {
        case .bytes(let n): return .success(chunk[0..<n])
        case .timeout: return .success([])
        case .closed: return .failure(Broken(reason: "the adapter closed the connection"))
        case .failed(let why): return .failure(Broken(reason: why))
        }
    }

    func close() {
        guard isOpen else { return }
        isOpen = false
        OBDSystem.close(fd)
    }

    deinit { close() }

    private func monotonicMilliseconds() -> Int64 { monotonicNanoseconds() / 1_000_000 }
}
