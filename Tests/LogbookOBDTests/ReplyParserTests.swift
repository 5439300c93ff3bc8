// SPDX-License-Identifier: MIT
import LogbookOBD
import LogbookRecords
import Testing

/// The reply parser and decoders against raw frames decoded by hand (SAE J1979 formulas,
/// worked out in the comments), never against another decoder's output.
@Suite struct ReplyParserTests {
    func parse(_ text: String, _ command: String, data: Bool = true) -> ELMResponse {
        ELMResponseParser.parse(Array(text.utf8), command: command, data: data)
    }

    @Test func engineSpeedWithAndWithoutSpacesAndEcho() throws {
        // 0x145F = 5215; 5215 / 4 = 1303.75 rpm.
        #expect(try OBDDecoder.rpm(parse("410C145F\r\r", "010C")).get() == 1303.75)
        #expect(try OBDDecoder.rpm(parse("41 0C 14 5F \r\r", "010C")).get() == 1303.75)
        #expect(try OBDDecoder.rpm(parse("010C\r41 0C 14 5F\r\r", "010C")).get() == 1303.75)  // echo on
        #expect(try OBDDecoder.rpm(parse("\r\n41 0c 14 5f\r\n\r\n", "010C")).get() == 1303.75)  // linefeeds, lower case
        // 0x41C2 = 16834 → 4208.5 rpm; two ECUs (a hybrid): the higher counts.
        #expect(try OBDDecoder.rpm(parse("410C0000\r410C41C2\r", "010C")).get() == 4208.5)
        #expect(try OBDDecoder.rpm(parse("410C0000", "010C")).get() == 0)
    }

    @Test func speedFuelOdometer() throws {
        #expect(try OBDDecoder.speed(parse("410D0A", "010D")).get() == 10)  // 0x0A km/h
        // 0xAA = 170; 170 · 100 / 255 = 66.67 %.
        let fuel = try OBDDecoder.fuelLevel(parse("SEARCHING...\r412FAA\r", "012F")).get()
        #expect(abs(fuel - 200.0 / 3) < 1e-9)
        // 0x0000EA5C = 59,996 → 5,999.6 km.
        #expect(try OBDDecoder.odometer(parse("41A60000EA5C", "01A6")).get() == 5999.6)
    }

    @Test func theEmulatorsOdometerWithServiceByte61IsRefusedNotGuessed() {
        // ELM327-emulator answers 01A6 with 61 A6 …: 0x61 is no mode 01 reply (that is 0x41).
        #expect(OBDDecoder.odometer(parse("61A60000EA5C", "01A6")) == .failure(.rejected(.wrongService)))
    }

    @Test func wrongLengthsAndPIDsAreRefused() {
        #expect(OBDDecoder.rpm(parse("410C14", "010C")) == .failure(.rejected(.wrongLength)))
        #expect(OBDDecoder.rpm(parse("410C145F00", "010C")) == .failure(.rejected(.wrongLength)))
        #expect(OBDDecoder.rpm(parse("410D145F", "010C")) == .failure(.rejected(.wrongPID)))
        #expect(OBDDecoder.rpm(parse("410C145", "010C")) == .failure(.rejected(.notHex)))
        #expect(OBDDecoder.rpm(parse("41 0C ZZ 9", "010C")) == .failure(.rejected(.notHex)))
        #expect(OBDDecoder.rpm(parse("ELM327 v1.5", "010C")) == .failure(.rejected(.notHex)))
        #expect(OBDDecoder.rpm(ELMResponseParser.parse([0x34, 0x31, 0xFF, 0x0C], command: "010C", data: true)) == .failure(.rejected(.notText)))
        #expect(OBDDecoder.rpm(parse("", "010C")) == .failure(.rejected(.empty)))
        #expect(OBDDecoder.rpm(ELMResponseParser.parse(Array(repeating: 0x41, count: 5000), command: "010C", data: true)) == .failure(.rejected(.tooLong)))
        #expect(OBDDecoder.fuelLevel(parse("7F 01 12", "012F")) == .failure(.noAnswer))  // a negative response
    }

    @Test func statusLines() throws {
        #expect(parse("NO DATA\r\r", "010C") == .noData)
        #expect(parse("SEARCHING...\rUNABLE TO CONNECT\r\r", "0100") == .unableToConnect)
        #expect(parse("CAN ERROR", "010C") == .busError("CAN ERROR"))
        #expect(parse("BUS INIT: ...ERROR", "010C") == .busError("BUS INIT: ...ERROR"))
        #expect(parse("BUS INIT:ERROR", "0100") == .busError("BUS INIT:ERROR"))
        #expect(parse("STOPPED", "010C") == .stopped)
        #expect(parse("?", "XYZ", data: false) == .unknownCommand)
        #expect(parse("ATE0\rOK\r\r", "ATE0", data: false) == .ok)
        #expect(parse("ATZ\r\r\rELM327 v1.5\r\r", "ATZ", data: false) == .text(["ELM327 v1.5"]))
        // A bus-init progress line before the data is not data.
        #expect(try OBDDecoder.speed(parse("BUS INIT: ...OK\r410D37\r", "010D")).get() == 55)
        #expect(OBDDecoder.identity(parse("ATZ\r\r\rELM327 v1.5\r\r", "ATZ", data: false)) == "ELM327 v1.5")
    }

    @Test func batteryVoltage() {
        #expect(OBDDecoder.voltage(parse("13.1V\r\r", "ATRV", data: false)) == .success(13.1))
        #expect(OBDDecoder.voltage(parse("12.6 V", "ATRV", data: false)) == .success(12.6))
        #expect(OBDDecoder.voltage(parse("ATRV\r11.8V", "ATRV", data: false)) == .success(11.8))
        #expect(OBDDecoder.voltage(parse("80.0V", "ATRV", data: false)) == .failure(.rejected(.outOfRange)))
        #expect(OBDDecoder.voltage(parse("1x.3V", "ATRV", data: false)) == .failure(.rejected(.notHex)))
        #expect(OBDDecoder.voltage(parse("?", "ATRV", data: false)) == .failure(.adapterError("?")))
    }

    @Test func supportedPIDBitmaps() throws {
        // 0100 → BE 3F A8 13:
        //   BE = 1011 1110: 01 03 04 05 06 07      3F = 0011 1111: 0B 0C 0D 0E 0F 10
        //   A8 = 1010 1000: 11 13 15               13 = 0001 0011: 1C 1F 20 (next bitmap)
        var s = SupportedPIDs()
        s.insert(bitmap: try OBDDecoder.bitmap(parse("4100BE3FA813", "0100"), service: 1, base: 0).get(), base: 0)
        #expect(s.pids == [0x01, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x13, 0x15, 0x1C, 0x1F, 0x20])
        // 0120 → 90 1F F0 15: 21 24 | 2C 2D 2E 2F 30 | 31 32 33 34 | 3C 3E 40.
        s.insert(bitmap: try OBDDecoder.bitmap(parse("4120901FF015", "0120"), service: 1, base: 0x20).get(), base: 0x20)
        #expect(s.contains(0x2F) && s.contains(0x40) && !s.contains(0x2B))
        // 01A0 → 04 20 00 00: 04 = 0000 0100 → A6 (odometer); 20 = 0010 0000 → AB.
        s.insert(bitmap: try OBDDecoder.bitmap(parse("41A004200000", "01A0"), service: 1, base: 0xA0).get(), base: 0xA0)
        #expect(s.contains(0xA6) && s.contains(0xAB) && !s.contains(0xA5) && !s.contains(0xC0))
        #expect(OBDDecoder.bitmap(parse("4100BE3FA8", "0100"), service: 1, base: 0) == .failure(.rejected(.wrongLength)))
    }

    @Test func troubleCodes() throws {
        // 01 33 → 00|00|0001 0011 0011: P0133; 04 20 → P0420.
        #expect(try OBDDecoder.troubleCodes(parse("43 01 33 04 20 \r\r", "03"), service: 3).get().map(\.description) == ["P0133", "P0420"])
        // CAN with the count byte: 02 codes.
        #expect(try OBDDecoder.troubleCodes(parse("430201330420", "03"), service: 3).get().map(\.description) == ["P0133", "P0420"])
        // Older protocols: three pairs per line, padded with 00 00.
        #expect(try OBDDecoder.troubleCodes(parse("43 01 33 00 00 00 00", "03"), service: 3).get().map(\.description) == ["P0133"])
        #expect(try OBDDecoder.troubleCodes(parse("4300", "03"), service: 3).get().isEmpty)
        #expect(try OBDDecoder.troubleCodes(parse("470300", "07"), service: 7).get().map(\.description) == ["P0300"])
        // C1 23 = 11|00|0001, 23 → U0123; 91 23 = 10|01|0001 → B1123; 5A BC = 01|01|1010 → C1ABC.
        #expect(try OBDDecoder.troubleCodes(parse("43C12391235ABC", "03"), service: 3).get().map(\.description) == ["C1ABC", "B1123", "U0123"])
        // A count that does not match the codes.
        #expect(OBDDecoder.troubleCodes(parse("43030133", "03"), service: 3) == .failure(.rejected(.badCount)))
        #expect(OBDDecoder.troubleCodes(parse("470300", "03"), service: 3) == .failure(.rejected(.wrongService)))
    }

    @Test func troubleCodeTextAndDescriptions() throws {
        let p0133 = try #require(TroubleCode("P0133"))
        #expect(p0133.raw == 0x0133 && p0133.isGeneric)
        #expect(p0133.genericDescription == "O2 Sensor Circuit Slow Response (Bank 1 Sensor 1)")
        #expect(TroubleCode("P0420")?.genericDescription == "Catalyst System Efficiency Below Threshold (Bank 1)")
        #expect(TroubleCode("P0141")?.genericDescription == "O2 Sensor Heater Circuit Malfunction (Bank 1 Sensor 2)")
        #expect(TroubleCode("P0304")?.genericDescription == "Cylinder 4 Misfire Detected")
        #expect(TroubleCode("P0457")?.genericDescription == "Evaporative Emission Control System Leak Detected (Fuel Cap Loose/Off)")
        #expect(TroubleCode("P0760")?.genericDescription == "Shift Solenoid C Malfunction")
        #expect(TroubleCode("P0102")?.genericDescription == "Mass or Volume Air Flow Circuit Low Input")
        // The maker's own codes and generic codes outside the table show bare.
        #expect(TroubleCode("P1234")?.isGeneric == false && TroubleCode("P1234")?.genericDescription == nil)
        #expect(TroubleCode("P3400")?.isGeneric == true && TroubleCode("P3100")?.isGeneric == false)
        #expect(TroubleCode("U0100")?.isGeneric == true && TroubleCode("U0100")?.genericDescription == nil)
        #expect(TroubleCode("P0A0F")?.genericDescription == nil)
        #expect(TroubleCode("X0133") == nil && TroubleCode("P4133") == nil && TroubleCode("P0000") == nil)
        #expect(TroubleCode(high: 0, low: 0) == nil)
    }

    /// `0902` in ISO-TP frames: 0x014 = 20 bytes = 49 02 01 + 17 characters.
    static let vinFrames = "014\r0: 490201575030\r1: 5A5A5A39395A54\r2: 53333930303030\r\r"

    @Test func multiFrameVIN() throws {
        // 57 50 30 | 5A 5A 5A 39 39 5A 54 | 53 33 39 30 30 30 30 = "WP0" "ZZZ99ZT" "S390000".
        let vin = try OBDDecoder.vin(parse(Self.vinFrames, "0902")).get()
        #expect(vin.text == "WP0ZZZ99ZTS390000")
        #expect(vin.manufacturer == "Porsche" && !vin.isNorthAmerican)
        // Position 10 'T' is 1996 or 2026; position 7 is a digit ('9'): the 1980–2009 cycle.
        #expect(vin.modelYear(currentYear: 2026) == 1996)
        // The same with spaces.
        #expect(try OBDDecoder.vin(parse("014\r0: 49 02 01 57 50 30\r1: 5A 5A 5A 39 39 5A 54\r2: 53 33 39 30 30 30 30", "0902")).get() == vin)
    }

    @Test func aMissingFrameIsRefused() {
        let middle = "014\r0: 490201575030\r2: 53333930303030\r"
        #expect(parse(middle, "0902") == .invalid(.frameOrder))
        let last = "014\r0: 490201575030\r1: 5A5A5A39395A54\r"
        #expect(parse(last, "0902") == .invalid(.missingFrame))
        #expect(parse("0: 490201575030\r", "0902") == .invalid(.frameWithoutLength))
        #expect(parse("014\r0: 490201575030\r1: 5A5A5A39395A54\r1: 53333930303030\r", "0902") == .invalid(.frameOrder))
    }

    @Test func legacyProtocolVINInFiveMessages() throws {
        // 49 02 0N + 4 bytes each, numbered 1-5, the first padded: 1M8GDM9AXKP042788.
        let lines = "49 02 01 00 00 00 31\r49 02 02 4D 38 47 44\r49 02 03 4D 39 41 58\r49 02 04 4B 50 30 34\r49 02 05 32 37 38 38\r"
        let vin = try OBDDecoder.vin(parse(lines, "0902")).get()
        #expect(vin.text == "1M8GDM9AXKP042788")
        let missing = "49 02 01 00 00 00 31\r49 02 02 4D 38 47 44\r49 02 04 4B 50 30 34\r49 02 05 32 37 38 38\r"
        #expect(OBDDecoder.vin(parse(missing, "0902")) == .failure(.rejected(.frameOrder)))
    }

    @Test func northAmericanCheckDigit() throws {
        // 1M8GDM9AXKP042788, weights 8 7 6 5 4 3 2 10 0 9 8 7 6 5 4 3 2:
        // 8+28+48+35+16+12+18+10+0+18+56+0+24+10+28+24+16 = 351 = 31·11 + 10 → 'X'.
        let vin = try VIN.parse("1M8GDM9AXKP042788").get()
        #expect(vin.isNorthAmerican && vin.expectedCheckDigit == UInt8(ascii: "X"))
        #expect(vin.modelYear(currentYear: 2026) == 1989)  // 'K', position 7 a digit
        #expect(VIN.parse("1M8GDM9A1KP042788") == .failure(.checkDigit))
        #expect(VIN.parse("WP0ZZZ99ZTS39000") == .failure(.length))
        #expect(VIN.parse("WP0ZZZ99ZTS3900O0") == .failure(.character))  // O is never used
        // 5YJ3E1EA2KF317000 (check digit 288 mod 11 = 2): position 7 'E' is a letter → the 2010–2039 cycle: 'K' = 2019.
        #expect(try VIN.parse("5YJ3E1EA2KF317000").map { $0.modelYear(currentYear: 2026) }.get() == 2019)
    }
}
