// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookPOSIX
internal import Logging
internal import ServiceLifecycle
#if canImport(Glibc)
    internal import Glibc
#endif

/// What the Pi's throttled flags said at one reading.
enum PowerReading: Sendable, Equatable {
    /// Read from `source`.
    case flags(ThrottledFlags, source: String)
    /// No file to read, or it could not be read or parsed: `why`.
    case unavailable(String)
}

/// Reads the Raspberry Pi's under-voltage and throttling flags every `interval` on a thread
/// of its own (one wake-up per reading) and hands each change to the pipeline, which records
/// it and shows it in the live state.
///
/// The file is `[power] throttled_file`, else the firmware's `get_throttled`, else the
/// `in0_lcrit_alarm` of the hwmon named `rpi_volt`. A missing or unreadable file is reported
/// unavailable once (a log line and the live state), never an error loop; it is looked for
/// again quietly, once a minute (the hwmon driver is a module that may load after us).
final class ThrottleMonitor: Service, Sendable {
    /// How often a file that does not exist is looked for again (the hwmon module may load late).
    static let absentInterval: Duration = .seconds(60)

    /// The firmware's attribute on a Raspberry Pi.
    static let firmwareFile = "/sys/devices/platform/soc/soc:firmware/get_throttled"

    let configuredFile: String?
    let sysfsRoot: String
    let interval: Duration
    let events: AsyncStream<PipelineEvent>.Continuation
    let logger: Logger
    private let thread = EventLoopThread(name: "logbook-power")

    init(file: String?, sysfsRoot: String = "/sys", interval: Duration, events: AsyncStream<PipelineEvent>.Continuation, logger: Logger) {
        self.configuredFile = file
        self.sysfsRoot = sysfsRoot
        self.interval = interval
        self.events = events
        self.logger = logger
    }

    func run() async {
        let started = thread.start { [self] control in
            var last: PowerReading?
            while !control.stopRequested {
                let reading = read()
                if reading != last {
                    report(reading, after: last)
                    last = reading
                }
                // Not a Pi (no file at all): look again once a minute, not every interval.
                let absent = if case .unavailable(let why) = reading { why.hasPrefix("no ") } else { false }
                _ = control.wait(timeout: absent ? max(interval, Self.absentInterval) : interval)
            }
        }
        if !started { logger.error("cannot start the throttled-flags thread; under-voltage is not watched") }
        try? await gracefulShutdown()
        thread.stop()
    }

    private func report(_ reading: PowerReading, after last: PowerReading?) {
        switch (reading, last) {
        case (.unavailable(let why), .flags?), (.unavailable(let why), nil):
            logger.notice("under-voltage and throttling: unavailable", metadata: ["why": "\(why)"])
        case (.flags(_, let source), .unavailable?), (.flags(_, let source), nil):
            logger.info("watching under-voltage and throttling", metadata: ["file": "\(source)"])
        default:
            break
        }
        events.yield(.power(reading))
    }

    /// One reading of the configured file, or the first that exists.
    func read() -> PowerReading {
        let file: String
        if let configuredFile {
            file = configuredFile
        } else if access(sysfsRoot + Self.firmwareFile.dropFirst(4), F_OK) == 0 {
            file = sysfsRoot + Self.firmwareFile.dropFirst(4)
        } else if let alarm = Self.hwmonAlarm(in: sysfsRoot + "/class/hwmon") {
            file = alarm
        } else {
            return .unavailable("no \(Self.firmwareFile) and no rpi_volt hwmon (not a Raspberry Pi?)")
        }
        switch Self.readSmallFile(file) {
        case .failure(let e): return .unavailable("\(file): \(errnoText(e.code))")
        case .success(let text):
            guard let flags = ThrottledFlags(parsing: text) else {
                return .unavailable("\(file): not a hexadecimal flag word: \"\(text.prefix(40))\"")
            }
            return .flags(flags, source: file)
        }
    }

    /// `in0_lcrit_alarm` of the hwmon whose `name` is `rpi_volt`, if any.
    static func hwmonAlarm(in directory: String) -> String? {
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix(".") else { continue }
            let path = directory + "/" + name
            if case .success(let text) = readSmallFile(path + "/name"), text.split(whereSeparator: \.isWhitespace).first == "rpi_volt" {
                return path + "/in0_lcrit_alarm"
            }
        }
        return nil
    }

    /// A sysfs attribute's text (read in one `read`), or the errno.
    static func readSmallFile(_ path: String) -> Result<String, Errno> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Errno(errno)) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else { return .failure(Errno(errno)) }
        return .success(String(decoding: buffer[0..<n], as: UTF8.self))
    }
}

/// An errno as an `Error`.
struct Errno: Error, Equatable {
    let code: Int32
    init(_ code: Int32) { self.code = code }
}
