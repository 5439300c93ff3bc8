// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport

/// Journals the real daemon wrote from real drives: a private gpsd replays the log, `logbookd`
/// records it as one trip (a `service` source), then stops. Each drive is recorded once per
/// test run and shared by every test that asks (the replay takes tens of seconds).
actor RecordedDrives {
    static let shared = RecordedDrives()

    /// The drives the tests use: the 3 h Swiss drive and the Munich city drive (with a gap).
    enum Drive: String, CaseIterable {
        case swiss = "20100403_Z205_Switzerland.txt"
        case munich = "munich-gps.nmea"

        /// Replay pace: fast, but slow enough that gpsd drops nothing.
        var speed: Double { self == .swiss ? 250 : 100 }
    }

    private var recordings: [Drive: Task<String, any Error>] = [:]
    private var directories: [TemporaryDirectory] = []

    /// The journal directory holding `drive` as trip 1.
    func journal(_ drive: Drive) async throws -> String {
        if let existing = recordings[drive] { return try await existing.value }
        let dir = try TemporaryDirectory("exp-\(drive == .swiss ? "ch" : "muc")")
        directories.append(dir)
        // A Task (not a child) so that concurrent callers share one recording.
        let task = Task { try await Self.record(drive, in: dir) }
        recordings[drive] = task
        return try await task.value
    }

    private static func record(_ drive: Drive, in dir: TemporaryDirectory) async throws -> String {
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

    struct RecordingFailed: Error, CustomStringConvertible {
        let log: String
        var description: String { "logbookd failed: \(log.suffix(2000))" }
    }
}
