// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import Testing

/// Values the daemon may serialise (live state, journal records) keep their documented form.
struct CodableTests {
    @Test func reasonEncodesAsItsString() throws {
        let data = try JSONEncoder().encode([TripReason.power("ignition"), .bluetooth("AA:BB"), .gap])
        #expect(String(decoding: data, as: UTF8.self) == #"["power:ignition","bluetooth:AA:BB","gap"]"#)
        let back = try JSONDecoder().decode([TripReason].self, from: data)
        #expect(back == [.power("ignition"), .bluetooth("AA:BB"), .gap])
        #expect(throws: (any Error).self) { try JSONDecoder().decode([TripReason].self, from: Data(#"["nope"]"#.utf8)) }
    }

    @Test func decisionsRoundTrip() throws {
        let decisions: [TripDecision] = [
            .start(TripStartInfo(vehicle: "golf", reason: .manual, gpsTime: GPSTime(seconds: 5), startedAt: .zero)),
            .gap(TripGap(from: GPSTime(seconds: 1), to: GPSTime(seconds: 700), seconds: 699, bridged: true)),
            .adopted(vehicle: nil, reason: .service),
        ]
        let data = try JSONEncoder().encode(decisions)
        #expect(try JSONDecoder().decode([TripDecision].self, from: data) == decisions)
    }
}
