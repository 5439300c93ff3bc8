// SPDX-License-Identifier: MIT
/// A device whose presence means "this vehicle is in use" (e.g. an OBD adapter that is
/// powered only with the ignition).
public struct DeviceRule: Sendable, Hashable {
    /// How the device is recognised.
    public enum Match: Sendable, Hashable {
        /// A device node or one of its udev symlinks: `/dev/ttyUSB0`, `/dev/serial/by-id/usb-…`.
        case node(String)
        /// A USB vendor:product id pair, lower-case hex: `10c4`, `ea60`.
        case usb(vendor: String, product: String)
    }

    /// How the device is recognised.
    public var match: Match
    /// The signal's name (default: the node path or `vvvv:pppp`).
    public var name: String
    /// The vehicle id the signals carry (nil: the engine's default vehicle).
    public var vehicle: String?

    /// A rule; USB ids are lower-cased, `name` defaults to the path or `vvvv:pppp`.
    public init(_ match: Match, name: String? = nil, vehicle: String? = nil) {
        let normalized: Match
        switch match {
        case .node(let path): normalized = .node(path)
        case .usb(let v, let p): normalized = .usb(vendor: v.lowercased(), product: p.lowercased())
        }
        self.match = normalized
        switch normalized {
        case .node(let path): self.name = name ?? path
        case .usb(let v, let p): self.name = name ?? "\(v):\(p)"
        }
        self.vehicle = vehicle
    }

    /// Parses a config value: `/dev/…` (a node) or `vvvv:pppp` (USB ids); nil if neither.
    public init?(parsing text: String, name: String? = nil, vehicle: String? = nil) {
        if text.hasPrefix("/dev/") {
            self.init(.node(text), name: name, vehicle: vehicle)
            return
        }
        let parts = text.split(separator: ":")
        guard parts.count == 2, parts.allSatisfy({ $0.count == 4 && $0.allSatisfy(\.isHexDigit) }) else { return nil }
        self.init(.usb(vendor: String(parts[0]), product: String(parts[1])), name: name, vehicle: vehicle)
    }

    /// Whether `device` is the one this rule names.
    func matches(_ device: DeviceEvent) -> Bool {
        switch match {
        case .node(let path):
            return device.devname == path || device.devlinks.contains(path)
        case .usb(let vendor, let product):
            return device.vendorID?.lowercased() == vendor && device.productID?.lowercased() == product
        }
    }
}

/// Turns device events into on/off edges per rule; pure, so it is unit-tested with fakes.
///
/// A rule is "on" while at least one present device (keyed by syspath) matches it; a USB
/// adapter shows up as a usb_device, its interfaces and a tty, which all count once.
struct DeviceMatcher {
    let rules: [DeviceRule]
    /// syspath → indices of the rules the device matched when it appeared.
    private var present: [String: Set<Int>] = [:]
    private var counts: [Int: Int] = [:]

    init(rules: [DeviceRule]) { self.rules = rules }

    /// Whether rule `index` has a matching device now.
    func isOn(_ index: Int) -> Bool { counts[index, default: 0] > 0 }

    /// Applies one event; returns the rules that switched (index, isOn), in rule order.
    mutating func apply(_ event: DeviceEvent) -> [(Int, Bool)] {
        guard let key = event.syspath ?? event.devname else { return [] }
        let before = present[key] ?? []
        let now: Set<Int> =
            event.action == "remove"
            ? [] : Set(rules.indices.filter { rules[$0].matches(event) })
        // A `change` or `bind` event may lack udev properties a previous event had: keep what
        // the device matched when it appeared unless it is removed.
        let after = event.action == "remove" ? now : before.union(now)
        if after.isEmpty { present.removeValue(forKey: key) } else { present[key] = after }
        var edges: [(Int, Bool)] = []
        for i in after.subtracting(before).sorted() {
            counts[i, default: 0] += 1
            if counts[i] == 1 { edges.append((i, true)) }
        }
        for i in before.subtracting(after).sorted() {
            counts[i, default: 0] -= 1
            if counts[i] == 0 { edges.append((i, false)) }
        }
        return edges.sorted { $0.0 < $1.0 }
    }
}
