// SPDX-License-Identifier: MIT
internal import CLogbookGPIOD
#if canImport(Glibc)
    internal import Glibc
#endif

/// Why a GPIO line could not be opened or read; the text says what to do about it.
struct GPIOLineError: Error, Equatable, CustomStringConvertible {
    /// What was attempted ("open chip gpiochip0", "request line 17"…).
    let operation: String
    /// The errno (positive).
    let code: Int32

    var description: String {
        let hint: String =
            switch code {
            case ENOENT, ENODEV: " (no such chip: check `gpiodetect` and the chip name or path)"
            case EACCES, EPERM: " (permission denied: add the user to group gpio / allow char-gpiochip)"
            case EBUSY: " (the line is held by another consumer: check `gpioinfo`)"
            case EINVAL: " (no such line offset on this chip: check `gpioinfo`)"
            default: ""
            }
        return "\(operation): \(String(cString: strerror(code)))\(hint)"
    }
}

/// One requested line: chip and line handles, opened, used and closed on the monitor thread.
///
/// Not Sendable: the libgpiod v1 handles are not thread-safe.
final class GPIOLine {
    private let chip: OpaquePointer
    private let line: OpaquePointer

    /// Opens `chip` (name, number, label or `/dev` path) and requests `offset` for both-edge
    /// events as `consumer`. The line is requested active-high: the raw level is reported.
    init(chip chipName: String, offset: UInt32, consumer: String) throws(GPIOLineError) {
        guard let chip = cgpiod_chip_open(chipName) else {
            throw GPIOLineError(operation: "open GPIO chip \(chipName)", code: cgpiod_errno())
        }
        guard let line = gpiod_chip_get_line(chip, offset) else {
            let code = cgpiod_errno()
            gpiod_chip_close(chip)
            throw GPIOLineError(operation: "get line \(offset) of \(chipName)", code: code)
        }
        let r = cgpiod_line_request_both_edges(line, consumer)
        guard r == 0 else {
            gpiod_chip_close(chip)
            throw GPIOLineError(operation: "request line \(offset) of \(chipName) for edge events", code: -r)
        }
        self.chip = chip
        self.line = line
    }

    deinit {
        // Closing the chip releases the requested line too; release first to be explicit.
        gpiod_line_release(line)
        gpiod_chip_close(chip)
    }

    /// The current physical level (`true` = high).
    func level() throws(GPIOLineError) -> Bool {
        let r = cgpiod_line_get_value(line)
        guard r >= 0 else { throw GPIOLineError(operation: "read line value", code: -r) }
        return r == 1
    }

    /// Waits up to `milliseconds` for an edge; returns true if one is pending. EINTR counts as
    /// a timeout (the caller loops anyway).
    func waitForEdge(milliseconds: Int64) throws(GPIOLineError) -> Bool {
        let r = cgpiod_line_event_wait_ms(line, milliseconds)
        if r == -EINTR { return false }
        guard r >= 0 else { throw GPIOLineError(operation: "wait for line events", code: -r) }
        return r > 0
    }

    /// Reads one pending edge: `true` for rising (now high), `false` for falling.
    func readEdge() throws(GPIOLineError) -> Bool {
        let r = cgpiod_line_event_read_edge(line)
        guard r >= 0 else { throw GPIOLineError(operation: "read line event", code: -r) }
        return r == 1
    }
}
