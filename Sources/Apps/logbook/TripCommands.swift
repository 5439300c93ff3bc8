// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookControl
import Foundation
import LogbookCore

/// `logbook trip start|stop`: starts or ends a trip by hand, through the control socket.
struct TripCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trip", abstract: "Start or stop a trip by hand (needs a running logbookd).",
        subcommands: [TripStartCommand.self, TripStopCommand.self])

    /// Sends `request`; prints the reply as JSON or as `summary`. Exit 69 without a daemon,
    /// 1 when it refuses.
    static func send(_ request: JSONValue, paths: PathOptions, json: Bool, summary: (JSONValue) -> String) async throws {
        try await withExitCodes {
            do {
                let client = try ControlClient(socketPath: try paths.daemonPaths().controlSocket)
                let (reply, text) = try client.call(request)
                print(json ? text : summary(reply))
            } catch let failure as ControlClient.Failure {
                throw failure.cliError
            }
        }
    }

    /// "Trip 2026-11-22T10:00:00Z-… started (vehicle golf)." from whatever the daemon said.
    static func describe(_ reply: JSONValue, _ verb: String) -> String {
        let trip = reply["trip"] ?? reply["last_trip"]
        var text = "Trip"
        if let id = trip?["id"]?.stringValue { text += " \(id)" }
        text += " \(verb)"
        let vehicle = trip?["vehicle"]
        if let name = vehicle?["id"]?.stringValue ?? vehicle?.stringValue { text += " (vehicle \(name))" }
        if let meters = trip?["distance_m"]?.doubleValue, verb == "stopped" {
            text += String(format: ", %.1f km", meters / 1000)
        }
        return text + "."
    }
}

/// `logbook trip start [--vehicle ID]`.
struct TripStartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Start recording a trip now.")

    @OptionGroup var paths: PathOptions

    @Option(name: .long, help: "The vehicle's id (default: the daemon's default vehicle).")
    var vehicle: String?

    @Flag(name: .long, help: "Print the daemon's JSON reply.")
    var json = false

    func validate() throws {
        if vehicle?.isEmpty == true { throw ValidationError("--vehicle needs a vehicle id") }
    }

    func run() async throws {
        var request: [(String, JSONValue)] = [("cmd", .string("trip.start"))]
        if let vehicle { request.append(("vehicle", .string(vehicle))) }
        try await TripCommand.send(.object(request), paths: paths, json: json) { TripCommand.describe($0, "started") }
    }
}

/// `logbook trip stop`.
struct TripStopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: "End the trip being recorded.")

    @OptionGroup var paths: PathOptions

    @Flag(name: .long, help: "Print the daemon's JSON reply.")
    var json = false

    func run() async throws {
        try await TripCommand.send(.object([("cmd", .string("trip.stop"))]), paths: paths, json: json) {
            TripCommand.describe($0, "stopped")
        }
    }
}
