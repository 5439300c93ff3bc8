// SPDX-License-Identifier: MIT
/// Where the adapter is: a serial device (USB, Bluetooth RFCOMM) or a TCP address (Wi-Fi).
public enum OBDEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// `device = "/dev/ttyUSB0"` or `"/dev/rfcomm0"`, `baud = 38400`.
    case serial(device: String, baud: Int)
    /// `address = "192.168.0.10:35000"`.
    case tcp(host: String, port: String)

    /// Baud rates a serial adapter may be set to (those the kernel has a constant for).
    public static let baudRates = [9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 500_000, 921_600, 1_000_000, 2_000_000]

    /// Parses `HOST:PORT` or `[IPv6]:PORT`; the port is required (adapters use 35000 or 23).
    public static func tcp(parsing text: String) -> OBDEndpoint? {
        let host: Substring, port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, let p = UInt16(port), p > 0 else { return nil }
        return .tcp(host: String(host), port: String(p))
    }

    public var description: String {
        switch self {
        case .serial(let device, let baud): "\(device) at \(baud) baud"
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }
}
