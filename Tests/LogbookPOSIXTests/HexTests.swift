// SPDX-License-Identifier: MIT
import LogbookPOSIX
import Testing

@Suite struct HexTests {
    @Test func encodesLowerCaseTwoDigitsPerByte() {
        #expect(Hex.encode([]) == "")
        #expect(Hex.encode([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        #expect(Hex.encode([UInt8](0...255)[250...]) == "fafbfcfdfeff")
    }

    @Test func decodesEitherCaseAndPostgresByteaPrefix() {
        #expect(Hex.decode("000fa0ff") == [0x00, 0x0f, 0xa0, 0xff])
        #expect(Hex.decode("000FA0Ff") == [0x00, 0x0f, 0xa0, 0xff])
        #expect(Hex.decode("\\x0102") == [1, 2])
        #expect(Hex.decode("") == [])
        let all = [UInt8](0...255)
        #expect(Hex.decode(Hex.encode(all)) == all)
    }

    @Test func refusesMalformedText() {
        #expect(Hex.decode("abc") == nil, "odd length")
        #expect(Hex.decode("zz") == nil)
        #expect(Hex.decode("0x01") == nil)
        #expect(Hex.decode("\\x0") == nil)
    }
}
