// SPDX-License-Identifier: MIT
import Foundation
import LogbookControl
import LogbookCore
import LogbookRecords
import LogbookPOSIX
public import LogbookSettings

/// The checks of `logbook doctor` and of the web app's Setup check page: what a first run
/// needs, each on its own. One implementation for both (the CLI prints them, the web app
/// shows them).
public struct DoctorChecks: Sendable {
    /// The shared configuration (directories, vehicles, sources, gpsd, the socket's group).
    public let settings: Settings
    /// The file the fixes name.
    public let configFile: String
    /// The trip index's path (`[index] path`, else under the state directory).
    public let indexPath: String
    /// A live.json older than this (seconds) means the daemon is not running.
    public var staleAfter = 10.0

    public init(settings: Settings, configFile: String, indexPath: String) {
        self.settings = settings
        self.configFile = configFile
        self.indexPath = indexPath
    }

    /// The checks in the order `logbook doctor` prints them. `probe` is gpsd's answer (waited
    /// `waited` seconds for a fix); `recordedVehicles` the ids the journal adds to the configured ones.
    public func all(probe: GPSDProbe, waited: Double, recordedVehicles: [String], minimumFreeMiB: Int) -> [DoctorCheck] {
        [
            gpsd(probe), fix(probe, waited: waited), daemon(), sources(), vehicles(recorded: recordedVehicles),
            permissions(), clock(probe), disk(minimumFreeMiB: minimumFreeMiB),
        ]
    }

    /// At least one vehicle, configured or added (trips are recorded for a vehicle); `recorded`
    /// are the ids of vehicles added through the journal.
    public func vehicles(recorded: [String]) -> DoctorCheck {
        var ids = settings.vehicles.map(\.id)
        ids += recorded.filter { !ids.contains($0) }.sorted()
        guard !ids.isEmpty else {
            return .fail(
                "vehicle", "no vehicle is configured",
                fix: "add a [[vehicle]] with an id to \(configFile) (or: logbook vehicles add car --name \"My car\")")
        }
        return .pass("vehicle", ids.joined(separator: ", "))
    }

    /// At least one `[[source]]`: without one no trip ever starts.
    public func sources() -> DoctorCheck {
        let sources = settings.sources
        guard !sources.isEmpty else {
            return .fail(
                "sources", "no [[source]]: logbookd runs but never starts a trip",
                fix: "add a [[source]] to \(configFile); type = \"service\" records while logbookd runs (docs/install-pi.md#4-wiring-the-ignition)")
        }
        let named = sources.map { s in s.vehicle.map { "\(s.kind.rawValue) (\($0))" } ?? s.kind.rawValue }
        return .pass("sources", named.joined(separator: ", "))
    }

    /// gpsd answers on its address.
    public func gpsd(_ probe: GPSDProbe) -> DoctorCheck {
        let address = settings.gpsd
        if let failure = probe.failure {
            return .fail(
                "gpsd", "not reachable at \(address): \(failure)",
                fix: "sudo systemctl enable --now gpsd.socket; check DEVICES in /etc/default/gpsd (docs/install-pi.md#gpsd)")
        }
        return .pass("gpsd", "reachable at \(address) (gpsd \(probe.release ?? "?"))")
    }

    /// The receiver has a 2D or 3D fix.
    public func fix(_ probe: GPSDProbe, waited: Double) -> DoctorCheck {
        guard probe.failure == nil else { return .fail("gps fix", "no gpsd, no fix", fix: "make gpsd reachable first") }
        if let mode = probe.mode, mode >= 2, probe.fixTime != nil { return .pass("gps fix", "\(mode)D fix") }
        let seen = probe.mode.map { "gpsd reports no fix (mode \($0))" } ?? "gpsd sent no position report"
        return .fail(
            "gps fix", "\(seen) within \(NumberText.fixed(waited, places: 0)) s",
            fix: "give the receiver a view of the sky (a cold start takes minutes); cgps or gpsmon shows its satellites")
    }

    /// logbookd answers on its control socket, or at least writes a fresh live.json.
    public func daemon() -> DoctorCheck {
        let socket = settings.controlSocketPath
        if let client = try? ControlClient(socketPath: socket), let (doc, _) = try? client.call(.object([("cmd", .string("status"))])) {
            let trip = doc["trip"].flatMap { $0.isNull ? nil : $0 }
            return .pass("daemon", "running (\(socket)); " + (trip != nil ? "recording a trip" : "idle"))
        }
        let live = settings.liveStatePath
        if let age = Self.liveAge(path: live), age <= staleAfter {
            return .pass("daemon", "running (live.json \(NumberText.fixed(age, places: 0)) s old; the control socket is not usable)")
        }
        return .fail(
            "daemon", "logbookd is not running (no answer on \(socket), no fresh \(live))",
            fix: "sudo systemctl enable --now logbookd; journalctl -u logbookd -n 20 says why it stopped")
    }

    /// This user may use the control socket and read the journal and the index.
    public func permissions() -> DoctorCheck {
        var problems: [String] = []
        let socket = settings.controlSocketPath
        if FileManager.default.fileExists(atPath: socket), access(socket, R_OK | W_OK) != 0 {
            problems.append("cannot use the control socket \(socket)")
        }
        let journal = settings.journalDirectory
        if FileManager.default.fileExists(atPath: journal), access(journal, R_OK | X_OK) != 0 {
            problems.append("cannot read the journal \(journal)")
        }
        let index = indexPath, indexDirectory = (index as NSString).deletingLastPathComponent
        if FileManager.default.fileExists(atPath: index) {
            if access(index, R_OK | W_OK) != 0 { problems.append("cannot read and update the index \(index)") }
        } else if FileManager.default.fileExists(atPath: indexDirectory), access(indexDirectory, W_OK | X_OK) != 0 {
            problems.append("cannot create the index in \(indexDirectory)")
        }
        guard !problems.isEmpty else { return .pass("permissions", "control socket, journal and index usable by this user") }
        let user = getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) } ?? "$USER"
        let group = settings.controlGroup ?? "logbook"
        return .fail(
            "permissions", problems.joined(separator: "; "),
            fix: "sudo usermod -aG \(group) \(user), then log in again (docs/install-pi.md#who-may-do-what)")
    }

    /// The system clock agrees with GPS time (trip times and the "future fix" check rely on it).
    public func clock(_ probe: GPSDProbe, tolerance: Double = 2) -> DoctorCheck {
        guard settings.trustSystemClock else {
            return .pass("clock", "not compared: [trip] trust_system_clock = false (fixes are judged by GPS time)")
        }
        guard let gps = probe.fixTime, let at = probe.receivedAt else {
            return .fail("clock", "no GPS time to compare the system clock with", fix: "wait for a fix, then run logbook doctor again")
        }
        let offset = at.seconds - gps.seconds
        guard abs(offset) > tolerance else { return .pass("clock", "system clock within \(NumberText.fixed(tolerance, places: 0)) s of GPS time") }
        return .fail(
            "clock", "the system clock is \(NumberText.fixed(abs(offset), places: 0)) s \(offset > 0 ? "ahead of" : "behind") GPS time",
            fix: "let chrony set the clock from gpsd (docs/install-pi.md#6-time-without-an-rtc)")
    }

    /// Room on the journal's file system.
    public func disk(minimumFreeMiB: Int) -> DoctorCheck {
        var path = settings.stateDirectory
        while !FileManager.default.fileExists(atPath: path), path != "/" { path = (path as NSString).deletingLastPathComponent }
        var fs = statvfs()
        guard statvfs(path, &fs) == 0 else {
            return .fail("disk", "cannot read the free space of \(path)", fix: "check that \(settings.stateDirectory) is mounted")
        }
        let freeMiB = Int(UInt64(fs.f_bavail) * UInt64(fs.f_frsize) / 1_048_576)
        let detail = "\(freeMiB) MiB free for the journal in \(path)"
        guard freeMiB >= minimumFreeMiB else {
            return .fail(
                "disk", detail + " (less than \(minimumFreeMiB) MiB)",
                fix: "free space on that file system, or move state_dir to a larger partition (docs/install-pi.md#7-where-the-data-lives-and-how-to-back-it-up)")
        }
        return .pass("disk", detail)
    }

    /// Seconds since live.json's `updated_at`, nil without a readable file.
    static func liveAge(path: String) -> Double? {
        guard let data = FileManager.default.contents(atPath: path), let doc = try? JSONValue.parse(Array(data)),
            let text = doc["updated_at"]?.stringValue, let t = ISO8601.parse(text)
        else { return nil }
        return Date().timeIntervalSince1970 - t.seconds
    }
}
