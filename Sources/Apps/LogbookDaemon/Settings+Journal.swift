// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookJournal
internal import LogbookSettings

extension Settings {
    /// The journal's in-memory buffer for a full disk, as ``JournalConfiguration``
    /// counts it: `disk_full_buffer_s` of points at `trip.point_interval_s` (at least 1 s).
    var diskFullBufferBytes: Int {
        JournalConfiguration.backlogBytes(forPoints: Int(diskFullBuffer / max(trip.minPointInterval, 1)))
    }
}
