// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore

/// Why a trip starts or ends where it does: the source and the rule, with the thresholds of
/// the `[trip]` configuration (`motion stop: 300 s within 50 m`, `gap: no data 60 min`).
struct BoundaryExplainer {
    let trip: TripEngineConfiguration

    func start(_ reason: String) -> String {
        if reason.hasPrefix("import:") {
            return "\(reason): imported from a \(reason.dropFirst(7)) file by `logbook import` (reconstructed from its positions, not recorded at the time)"
        }
        return switch TripReason(rawValue: reason) {
        case .power(let n): "power:\(n) on (the ignition-switched supply came on)"
        case .gpio(let n): "gpio:\(n) on (the ignition line came on)"
        case .bluetooth(let mac): "bluetooth:\(mac) connected (the head unit)"
        case .device(let n): "device:\(n) appeared"
        case .obd(let n): "obd:\(n) engine started (rpm above zero)"
        case .motion:
            String(
                format: "motion start: ≥ %.0f km/h for %@ and %.0f m from where it stood", trip.motionStartSpeed * 3.6,
                TripFormat.threshold(trip.motionStartDuration), trip.motionStartDisplacement)
        case .manual: "manual: `logbook trip start`"
        case .service: "service: logbookd started (vehicle-ignition.target)"
        case .shutdown, .recovered, .gap, nil: reason
        }
    }

    func end(_ reason: String?) -> String {
        guard let reason else { return "still recording" }
        if reason == "import:aborted" { return "import:aborted: the import stopped before this trip was complete" }
        if reason.hasPrefix("import:") { return "\(reason): where the imported file's trip ended" }
        let grace = "for the \(TripFormat.threshold(trip.powerOffGrace)) grace"
        switch TripReason(rawValue: reason) {
        case .power(let n): return "power:\(n) off \(grace)"
        case .gpio(let n): return "gpio:\(n) off \(grace)"
        case .bluetooth(let mac): return "bluetooth:\(mac) disconnected \(grace)"
        case .device(let n): return "device:\(n) gone \(grace)"
        case .obd(let n): return "obd:\(n) engine stopped or the adapter stopped answering \(grace)"
        case .motion:
            return "motion stop: \(TripFormat.threshold(trip.motionStopDuration)) within \(Int(trip.motionStopRadius)) m"
        case .manual: return "manual: `logbook trip stop`"
        case .service: return "service: logbookd stopped"
        case .shutdown: return "shutdown: logbookd stopped (SIGTERM or system shutdown)"
        case .recovered: return "recovered after power loss: closed at its last durable point when logbookd restarted"
        case .gap: return "gap: no data \(TripFormat.threshold(trip.maxNoDataDuration))"
        case nil: return reason
        }
    }
}
