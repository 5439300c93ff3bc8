// SPDX-License-Identifier: MIT
/// Which D-Bus bus daemon a monitor talks to.
public enum DBusEndpoint: Sendable, Hashable {
    /// The system bus (`DBUS_SYSTEM_BUS_ADDRESS` if set, else `/run/dbus/system_bus_socket`).
    case system
    /// A bus daemon at a D-Bus address, e.g. `unix:path=/tmp/x/bus` (tests: a private dbus-daemon).
    case address(String)

    /// `.address` when `value` is a non-empty address (e.g. a config value or
    /// `LOGBOOKD_DBUS_ADDRESS`), else `.system`.
    public init(address value: String?) {
        if let value, !value.isEmpty { self = .address(value) } else { self = .system }
    }
}
