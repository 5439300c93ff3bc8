// SPDX-License-Identifier: MIT
import LogbookCore
import Testing

/// The Raspberry Pi firmware's throttled flags: parsing and what changed between readings.
struct ThrottledFlagsTests {
    @Test func parsesTheFormsThePiPrints() throws {
        #expect(ThrottledFlags(parsing: "50005\n")?.rawValue == 0x50005)
        #expect(ThrottledFlags(parsing: "0x50005")?.rawValue == 0x50005)
        #expect(ThrottledFlags(parsing: "throttled=0x50005\n")?.rawValue == 0x50005)
        #expect(ThrottledFlags(parsing: " 0 ")?.rawValue == 0)
        #expect(ThrottledFlags(parsing: "1\n")?.now == [.underVoltage], "the rpi_volt hwmon alarm")
        for bad in ["", "\n", "0x", "zz", "1 2", "123456789", "-1", "throttled="] {
            #expect(ThrottledFlags(parsing: bad) == nil, "\(bad)")
        }
        let f = try #require(ThrottledFlags(parsing: "5000e"))
        #expect(f.now == [.frequencyCapped, .throttled, .softTemperatureLimit])
        #expect(f.sinceBoot == [.underVoltage, .throttled])
        #expect(f.hex == "0x5000e")
    }

    @Test func changesAreOnAndOffEdgesAndADipBetweenReadingsIsAPair() {
        func flags(_ v: UInt32) -> ThrottledFlags { ThrottledFlags(rawValue: v) }
        func names(_ c: [(ThrottledFlags.Condition, Bool)]) -> [String] { c.map { "\($0.0.rawValue) \($0.1 ? "on" : "off")" } }
        #expect(ThrottledFlags.changes(from: nil, to: flags(0)).isEmpty)
        #expect(names(ThrottledFlags.changes(from: flags(0), to: flags(0x50005))) == ["under-voltage on", "throttled on"])
        #expect(names(ThrottledFlags.changes(from: flags(0x50005), to: flags(0x50000))) == ["under-voltage off", "throttled off"])
        #expect(ThrottledFlags.changes(from: flags(0x50000), to: flags(0x50000)).isEmpty)
        // Under-voltage came and went between two readings: only its since-boot bit tells.
        #expect(names(ThrottledFlags.changes(from: flags(0), to: flags(0x10000))) == ["under-voltage on", "under-voltage off"])
        // At start: what happened before the daemon ran is on record too.
        #expect(names(ThrottledFlags.changes(from: nil, to: flags(0x80001))) == ["under-voltage on", "soft-temperature-limit on", "soft-temperature-limit off"])
    }
}
