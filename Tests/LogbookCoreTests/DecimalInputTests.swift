// SPDX-License-Identifier: MIT
import LogbookCore
import Testing

/// Numbers as people type them (issue 23, part 4): one parser for the CLI and the web forms.
struct DecimalInputTests {
    static let cases: [(String, Double?)] = [
        ("45.3", 45.3), ("45,3", 45.3), ("60,5", 60.5), (" 7 ", 7), ("-7,25", -7.25), ("+3", 3), ("0,05", 0.05),
        (",5", 0.5), ("5,", 5), ("1234", 1234),
        ("1.234,5", nil), ("1,234.5", nil), ("1,2,3", nil), ("", nil), ("-", nil), (",", nil), ("1e3", nil), ("inf", nil),
        ("nan", nil), ("0x10", nil), ("12 l", nil), ("١٢", nil),
    ]

    @Test(arguments: cases)
    func parsesWhatPeopleType(text: String, want: Double?) {
        #expect(DecimalInput.parse(text) == want, "\"\(text)\"")
    }
}
