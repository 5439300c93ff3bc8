// SPDX-License-Identifier: MIT
internal import LogbookOBD
internal import LogbookSettings

extension SourceConfiguration {
    /// Where an `obd` source's adapter is (nil for other kinds).
    var obdEndpoint: OBDEndpoint? {
        guard kind == .obd else { return nil }
        if let device { return .serial(device: device, baud: baud) }
        return address.flatMap(OBDEndpoint.tcp(parsing:))
    }
}
