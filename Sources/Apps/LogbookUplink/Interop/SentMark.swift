// SPDX-License-Identifier: MIT
import LogbookCore
#if canImport(Glibc)
    import Glibc
#endif

/// The last message a receiver acknowledged, per sink: `<state_dir>/sent-<sink>.json`.
///
/// The cursor moves once per batch; a receiver that does not de-duplicate (the OwnTracks
/// Recorder appends every message) would store a batch's first messages twice when the batch
/// is sent again after a failure in its middle. So each acknowledged message's sequence is
/// written here at once (a `pwrite`: it survives a crash of the process), `fsync`ed with the
/// cursor at the batch's end (so a power cut can repeat at most one batch), and messages at
/// or below it are not sent again.
final class SentMark {
    private let path: String
    fileprivate var fd: Int32 = -1
    private let device: String
    /// The highest sequence acknowledged (0: none).
    fileprivate(set) var sequence: UInt64 = 0

    init(directory: String, sink: String, device: String) {
        path = directory + "/sent-" + sink + ".json"
        self.device = device
        if let bytes = try? AtomicFile.read(path), let json = try? JSONValue.parse(bytes),
            json["device_id"]?.stringValue == device, let s = json["seq"]?.doubleValue
        {
            sequence = UInt64(s)
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Whether message `seq` was acknowledged already.
    func covers(_ seq: UInt64) -> Bool { seq <= sequence }

    /// Records `seq` as acknowledged (no fsync: see ``flush()``).
    func mark(_ seq: UInt64) {
        guard seq > sequence else { return }
        sequence = seq
        if fd < 0 { fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o640) }
        guard fd >= 0 else { return }
        // Fixed width, so a shorter text never leaves the tail of a longer one behind.
        var text = JSONValue.object([("device_id", .string(device)), ("seq", .number(Double(seq)))]).serialized
        text += String(repeating: " ", count: max(0, 120 - text.utf8.count)) + "\n"
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// Makes the mark durable (called once per batch).
    func flush() {
        if fd >= 0 { fdatasync(fd) }
    }
}

extension SentMark {
    /// After a rewind the journal reuses sequence numbers above `to`: forget acknowledgements past it.
    func rewind(to: UInt64) {
        if sequence > to {
            sequence = to
            if fd >= 0 { ftruncate(fd, 0) }
        }
    }
}
