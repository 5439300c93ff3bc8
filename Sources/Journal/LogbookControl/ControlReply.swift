// SPDX-License-Identifier: MIT
package import LogbookCore

/// Builds the reply lines of the control socket (one JSON object and a newline each).
package enum ControlReply {
    /// `{"error":{"code":…,"message":…}}`, with the request's `id`.
    package static func error(_ code: String, _ message: String, id: JSONValue?) -> [UInt8] {
        line(.object([("error", .object([("code", .string(code)), ("message", .string(message))]))]), id: id)
    }

    /// An error reply for a ``ControlError``.
    package static func error(_ error: ControlError, id: JSONValue?) -> [UInt8] {
        self.error(error.code, error.message, id: id)
    }

    /// `{"ok":true,…}`: the handler's object members follow `ok`; any other non-null value
    /// goes under `result`.
    package static func success(_ result: JSONValue, id: JSONValue?) -> [UInt8] {
        var members: [(String, JSONValue)] = [("ok", .bool(true))]
        switch result {
        case .object(let extra): members += extra.filter { $0.0 != "ok" && $0.0 != "id" }
        case .null: break
        default: members.append(("result", result))
        }
        return line(.object(members), id: id)
    }

    /// `value` serialized on one line, `id` appended when the request had one and `value`
    /// is an object.
    package static func line(_ value: JSONValue, id: JSONValue?) -> [UInt8] {
        var out = value
        if let id, case .object(let members) = value {
            out = .object(members.filter { $0.0 != "id" } + [("id", id)])
        }
        return Array((out.serialized + "\n").utf8)
    }
}
