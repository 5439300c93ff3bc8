// SPDX-License-Identifier: MIT
package import LogbookCore

/// What the daemon provides to the control socket.
///
/// # The control-socket protocol
///
/// A Unix stream socket (default `<runtime-dir>/control.sock`, mode 0660, group `logbook`, or
/// a socket passed by systemd socket activation). Requests and replies are newline-delimited
/// JSON (NDJSON): one UTF-8 JSON object per line, so `socat` or a 10-line script can use it:
///
///     echo '{"cmd":"status"}' | socat - UNIX-CONNECT:/run/logbook/control.sock
///
/// Every request is an object with a string `"cmd"`. It may carry an `"id"` (any JSON
/// value); every reply to that request then ends with the same `"id"` member (a line that
/// is not a JSON object, or is too long, has no readable `id`). Requests on
/// one connection are answered in order. A trailing `\r` and empty lines are ignored.
///
/// | Request | Reply |
/// |---|---|
/// | `{"cmd":"status"}` | the live-state document (`{"schema":1,"seq":…}`, as in `live.json`) |
/// | `{"cmd":"watch"}` | the current document at once, then one per live-state publication (at most 2 s apart) until the client closes the connection; if the server falls behind, only the newest document is sent |
/// | `{"cmd":"trip.start","vehicle":"golf"}` | `{"ok":true,…}` (`vehicle` optional) |
/// | `{"cmd":"trip.stop"}` | `{"ok":true,…}` |
/// | `{"cmd":"vehicle.add","vehicle":"golf","name":"Golf",…}` | `{"ok":true,"seq":…,"type":"vehicle","action":"add","subject":"golf"}` once durable |
/// | `vehicle.amend`, `vehicle.retire`, `fuel.add`, `fuel.amend`, `fuel.void`, `trip.classify`, `odometer.add` | the same; fields in `docs/garage.md` |
///
/// Write commands (`trip.*` and those a handler adds through ``ControlHandler/commands``)
/// reply `{"ok":true,…members from the daemon…}`. A request that fails gets
/// `{"error":{"code":"…","message":"…"}}` and the connection stays usable, except as noted:
///
/// - `bad_request`: not JSON, not UTF-8, not an object, `cmd` missing or not a string, an
///   unknown field or a field of the wrong type;
/// - `unknown_command`: `cmd` names no command;
/// - `too_long`: a line longer than 64 KiB; the rest of the line is discarded;
/// - `too_many_clients`: sent to a connection beyond the limit (64), which is then closed;
/// - `unavailable`: the daemon is shutting down;
/// - any code the daemon's handler returns for a write command (e.g. `no_trip`; the garage
///   commands: `bad_request` with the field's problem, `journal` when the append failed).
///
/// A client that does not read its replies (a stalled watcher) is disconnected once 256 KiB
/// of replies are waiting for it: it never slows the daemon or other clients.
package protocol ControlHandler: Sendable {
    /// The current live-state document (what `status` returns).
    ///
    /// Called on the control socket's thread: it must be quick and must not block.
    func currentState() -> JSONValue

    /// Executes a command other than status/watch; returns the reply object members or an error.
    ///
    /// Runs in a child task of ``ControlSocketService``'s task group; it is cancelled when the
    /// service is cancelled. The request has been validated against ``commands``.
    func execute(_ command: String, _ request: JSONValue) async -> Result<JSONValue, ControlError>

    /// The write commands this handler executes, with their arguments.
    ///
    /// Defaults to ``ControlCommand/builtIn`` (`trip.start`, `trip.stop`).
    var commands: [ControlCommand] { get }
}

extension ControlHandler {
    package var commands: [ControlCommand] { ControlCommand.builtIn }
}

/// An error reply: `{"error":{"code":code,"message":message}}`.
package struct ControlError: Error, Sendable, Equatable {
    /// Machine-readable, snake_case (e.g. `no_trip`, `unknown_vehicle`).
    package var code: String
    /// One line for a person.
    package var message: String

    package init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}
