// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore

/// Journals the real daemon wrote from real drives: a private gpsd replays the log, `logbookd`
/// records it as one trip (a `service` source), then stops. Each drive is recorded once per
/// test run and shared by every test that asks (the replay takes tens of seconds).
public actor RecordedDrives {
    public static let shared = RecordedDrives()

    /// The drives the tests use: the 3 h Swiss drive and the Munich city drive (with a gap).
    public enum Drive: String, CaseIterable, Sendable {
        case swiss = "20100403_Z205_Switzerland.txt"
        case munich = "munich-gps.nmea"

        /// Replay pace: fast, but slow enough that gpsd drops nothing.
        public var speed: Double { self == .swiss ? 250 : 100 }
    }

    private var recordings: [Drive: Task<String, any Error>] = [:]

    /// Where this test process keeps its recordings; removed when the process exits.
    public static func root(pid: Int32? = nil) -> String { "/tmp/lb-drives-\(pid ?? getpid())" }

    private init() {
        Self.sweepDeadRuns()
        mkdir(Self.root(), 0o700)
        atexit { try? FileManager.default.removeItem(atPath: RecordedDrives.root()) }
    }

    /// Removes what runs killed before their exit left behind.
    private static func sweepDeadRuns() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        for name in names where name.hasPrefix("lb-drives-") {
            guard let pid = Int32(name.dropFirst("lb-drives-".count)), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: root(pid: pid))
        }
    }

    /// The journal directory holding `drive` as trip 1 (its state directory, with the signing
    /// key, is the parent; `logbookd.toml` beside that names both).
    public func journal(_ drive: Drive) async throws -> String {
        if let existing = recordings[drive] { return try await existing.value }
        let dir = Self.root() + "/" + drive.rawValue
        // A Task (not a child) so that concurrent callers share one recording.
        let task = Task { try await Self.record(drive, in: dir) }
        recordings[drive] = task
        return try await task.value
    }

    private static func record(_ drive: Drive, in path: String) async throws -> String {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let dir = Directory(path: path)
        let gpsd = try GPSDReplay(log: TestPaths.gpsLog(drive.rawValue), realtime: drive.speed)
        defer { gpsd.stop() }
        let config = dir.file("logbookd.toml")
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "\(gpsd.address)"
            [journal]
            commit_interval_s = 1
            [[vehicle]]
            id = "golf"
            name = "Golf"
            [[source]]
            type = "service"
            vehicle = "golf"

            """.write(toFile: config, atomically: true, encoding: .utf8)
        // The engine's clock runs at the replay's pace, so gaps and durations read as on the road.
        let daemon = try DaemonProcess(
            arguments: ["--config", config], environment: ["LOGBOOKD_DEBUG_CLOCK_SCALE": String(drive.speed)])
        await gpsd.waitUntilFinished(timeout: .seconds(180))
        guard let (status, _) = await daemon.stop(), status == 0 else {
            throw RecordingFailed(log: daemon.log)
        }
        return dir.file("state/journal")
    }

    private struct Directory {
        let path: String
        func file(_ name: String) -> String { path + "/" + name }
    }

    struct RecordingFailed: Error, CustomStringConvertible {
        let log: String
        var description: String { "logbookd failed: \(log.suffix(2000))" }
    }
}
