// SPDX-License-Identifier: MIT
internal import LogbookConfig
internal import LogbookCore

extension Settings {
    /// Reads `[trip]`: the trip-detection thresholds of docs/architecture.md.
    mutating func readTripSettings(_ r: inout ConfigReader) throws(ConfigError) {
        // Checked against the vehicle registry by logbookd: ``Settings/checkVehicleReferences(known:)``.
        if let v = try r.string("trip.default_vehicle") { trip.defaultVehicle = v }
        if let d = try r.double("trip.power_off_grace_s", in: 0...3600) { trip.powerOffGrace = d }
        if let d = try r.double("trip.discard_below_m", in: 0...10_000) { trip.discardMaxDistance = d }
        if let d = try r.double("trip.discard_below_s", in: 0...3600) { trip.discardMaxDuration = d }
        if let d = try r.double("trip.merge_stop_s", in: 0...7200) { trip.shortStopMergeDuration = d }
        if let d = try r.double("trip.merge_radius_m", in: 0...5000) { trip.shortStopMergeRadius = d }
        if let d = try r.double("trip.bridge_gap_s", in: 0...86_400) { trip.maxBridgedGap = d }
        if let d = try r.double("trip.end_after_no_data_s", in: 60...86_400) { trip.maxNoDataDuration = d }
        if let d = try r.double("trip.point_interval_s", in: 0...60) { trip.minPointInterval = d }
        if let d = try r.double("trip.point_distance_m", in: 0...1000) { trip.minPointDistance = d }
        if let d = try r.double("trip.motion_start_kmh", in: 1...100) { trip.motionStartSpeed = d / 3.6 }
        if let d = try r.double("trip.motion_start_s", in: 0...600) { trip.motionStartDuration = d }
        if let d = try r.double("trip.motion_start_m", in: 0...10_000) { trip.motionStartDisplacement = d }
        if let d = try r.double("trip.motion_stop_s", in: 10...7200) { trip.motionStopDuration = d }
        if let d = try r.double("trip.motion_stop_radius_m", in: 1...5000) { trip.motionStopRadius = d }
        if let d = try r.double("trip.max_eph_m", in: 1...10_000) { trip.filter.maxHorizontalError = d }
        if let d = try r.double("trip.poor_fix_gate_m", in: 0...1000) { trip.filter.poorFixGate = d }
        if let d = try r.double("trip.max_speed_kmh", in: 10...2000) { trip.filter.maxSpeed = d / 3.6 }
        if let d = try r.double("trip.future_fix_margin_s", in: 0...31_536_000) { trip.filter.maxTimeAhead = d }
        if let b = try r.bool("trip.trust_system_clock") { trustSystemClock = b }
        if let d = try r.double("trip.reopen_within_s", in: 0...3600) { trip.reopenWithin = d }
        trip.motionEnabled = sources.contains { $0.kind == .motion }
        trip.motionVehicle = sources.first { $0.kind == .motion }?.vehicle
    }
}
