// SPDX-License-Identifier: MIT
internal import CLogbookSystemd
internal import LogbookCore
internal import Logging
#if canImport(Glibc)
    internal import Glibc
#endif

/// What one read of a power supply's `online` attribute gave.
enum PowerSupplyReading: Equatable {
    case online(Bool)
    /// The file could not be read (errno text).
    case unreadable(String)
    /// The content is not a known `online` value.
    case invalid(String)

    /// Parses the attribute's text. The kernel ABI (sysfs-class-power) defines 0 offline,
    /// 1 online (fixed) and 2 online (programmable): 1 and 2 are both "on".
    static func parse(_ text: String) -> PowerSupplyReading {
        let trimmed = text.trimmingWhitespace()
        switch trimmed {
        case "0": return .online(false)
        case "1", "2": return .online(true)
        default: return .invalid(String(trimmed.prefix(40)))
        }
    }
}

/// The per-supply state the monitor's loop keeps; created and used on that loop's thread only.
final class PowerSupplyWatch {
    private let supplies: [String]
    private let vehicle: String?
    private let sysfsRoot: String
    private let logger: Logger
    private let emit: @Sendable (VehicleSignal) -> Void
    /// Last reported state per supply (absent: nothing reported yet).
    private var reported: [String: Bool] = [:]
    /// Last logged problem per supply, so a lasting problem is logged once.
    private var problem: [String: PowerSupplyReading] = [:]

    init(
        supplies: [String], vehicle: String?, sysfsRoot: String, logger: Logger,
        emit: @escaping @Sendable (VehicleSignal) -> Void
    ) {
        self.supplies = supplies
        self.vehicle = vehicle
        self.sysfsRoot = sysfsRoot
        self.logger = logger
        self.emit = emit
    }

    /// `ROOT/class/power_supply/NAME/online`, or nil for a name that would leave the class directory.
    func attributePath(_ name: String) -> String? {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
        return "\(sysfsRoot)/class/power_supply/\(name)/online"
    }

    /// Reads every supply and reports the ones whose state changed.
    func scan() {
        for name in supplies {
            let reading = attributePath(name).map(Self.readAttribute) ?? .unreadable("invalid supply name")
            switch reading {
            case .online(let isOn):
                if problem.removeValue(forKey: name) != nil {
                    logger.info("power supply readable again", metadata: ["supply": "\(name)"])
                }
                guard reported[name] != isOn else { continue }
                reported[name] = isOn
                logger.info("power supply \(isOn ? "online" : "offline")", metadata: ["supply": "\(name)"])
                emit(VehicleSignal(kind: .power, name: name, vehicle: vehicle, isOn: isOn))
            case .unreadable(let why), .invalid(let why):
                guard problem[name] != reading else { continue }
                problem[name] = reading
                let what = if case .invalid = reading { "unexpected content" } else { "unreadable" }
                logger.warning(
                    "power supply \(what); keeping its last state",
                    metadata: ["supply": "\(name)", "path": "\(attributePath(name) ?? name)", "detail": "\(why)"])
            }
        }
    }

    /// Reads a small sysfs attribute (sysfs files are read in one `read`).
    static func readAttribute(_ path: String) -> PowerSupplyReading {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .unreadable(errnoText(errno)) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else { return .unreadable(errnoText(errno)) }
        return .parse(String(decoding: buffer[0..<n], as: UTF8.self))
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and newlines (no Foundation).
    func trimmingWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline || $0 == "\0" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
