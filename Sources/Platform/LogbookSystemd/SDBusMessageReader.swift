// SPDX-License-Identifier: MIT
internal import CLogbookSystemd

/// A variant value the monitors care about; everything else is skipped.
enum BusValue: Equatable {
    case bool(Bool)
    case string(String)
    case other
}

/// Reads sd-bus messages with the non-variadic calls (`sd_bus_message_read` is variadic).
///
/// All functions work on the message's read cursor and return nil/false when the message
/// does not have the expected shape; they never trap on bad input from the bus.
enum SDBusMessageReader {
    static func type(_ c: Unicode.Scalar) -> CChar { CChar(truncatingIfNeeded: UInt8(ascii: c)) }

    /// Reads a basic string-like value (`s`, `o` or `g`).
    static func string(_ m: OpaquePointer, _ t: Unicode.Scalar = "s") -> String? {
        var p: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(m, type(t), &p) > 0, let p else { return nil }
        return String(cString: p)
    }

    /// Reads a `b`.
    static func bool(_ m: OpaquePointer) -> Bool? {
        var b: Int32 = 0
        guard sd_bus_message_read_basic(m, type("b"), &b) > 0 else { return nil }
        return b != 0
    }

    /// Reads a `v` holding `b` or `s`; skips any other variant.
    static func variant(_ m: OpaquePointer) -> BusValue? {
        var t: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(m, &t, &contents) > 0, t == type("v"), let contents else { return nil }
        let inner = String(cString: contents)
        guard inner == "b" || inner == "s" else {
            return sd_bus_message_skip(m, "v") >= 0 ? .other : nil
        }
        guard sd_bus_message_enter_container(m, type("v"), inner) > 0 else { return nil }
        let value: BusValue? = inner == "b" ? bool(m).map(BusValue.bool) : string(m).map(BusValue.string)
        guard sd_bus_message_exit_container(m) >= 0 else { return nil }
        return value
    }

    /// Reads an `a{sv}` into the `b` and `s` entries it holds.
    static func properties(_ m: OpaquePointer) -> [String: BusValue]? {
        guard sd_bus_message_enter_container(m, type("a"), "{sv}") > 0 else { return nil }
        var out: [String: BusValue] = [:]
        while true {
            let r = sd_bus_message_enter_container(m, type("e"), "sv")
            if r == 0 { break }
            guard r > 0, let key = string(m), let value = variant(m),
                sd_bus_message_exit_container(m) >= 0
            else { return nil }
            out[key] = value
        }
        guard sd_bus_message_exit_container(m) >= 0 else { return nil }
        return out
    }

    /// Reads `PropertiesChanged(s interface, a{sv} changed, as invalidated)` up to the changes.
    static func propertiesChanged(_ m: OpaquePointer) -> (interface: String, changed: [String: BusValue])? {
        guard let interface = string(m), let changed = properties(m) else { return nil }
        return (interface, changed)
    }

    /// Reads ObjectManager `GetManagedObjects` (`a{oa{sa{sv}}}`), keeping only `interface`'s
    /// properties: object path → properties.
    static func managedObjects(_ m: OpaquePointer, interface wanted: String) -> [String: [String: BusValue]]? {
        guard sd_bus_message_enter_container(m, type("a"), "{oa{sa{sv}}}") > 0 else { return nil }
        var out: [String: [String: BusValue]] = [:]
        while true {
            let r = sd_bus_message_enter_container(m, type("e"), "oa{sa{sv}}")
            if r == 0 { break }
            guard r > 0, let path = string(m, "o"),
                sd_bus_message_enter_container(m, type("a"), "{sa{sv}}") > 0
            else { return nil }
            while true {
                let r2 = sd_bus_message_enter_container(m, type("e"), "sa{sv}")
                if r2 == 0 { break }
                guard r2 > 0, let interface = string(m) else { return nil }
                if interface == wanted {
                    guard let props = properties(m) else { return nil }
                    out[path] = props
                } else if sd_bus_message_skip(m, "a{sv}") < 0 {
                    return nil
                }
                guard sd_bus_message_exit_container(m) >= 0 else { return nil }
            }
            guard sd_bus_message_exit_container(m) >= 0, sd_bus_message_exit_container(m) >= 0 else { return nil }
        }
        guard sd_bus_message_exit_container(m) >= 0 else { return nil }
        return out
    }
}
