// SPDX-License-Identifier: MIT
/// Dates and times as people type them, with the instant each names in Europe/Berlin (nil:
/// refused), shared by the CLI's and the web forms' tables.
enum TimeInputCases {
    static let berlin: [(typed: String, utc: String?)] = [
        ("2029-11-10", "2029-11-09T23:00:00Z"),
        ("2029-11-10T08:00", "2029-11-10T07:00:00Z"),
        ("2029-11-10 08:00", "2029-11-10T07:00:00Z"),
        ("2029-11-10T08:00:30", "2029-11-10T07:00:30Z"),
        ("2029-11-10T08:00+01:00", "2029-11-10T07:00:00Z"),
        ("2029-11-10T08:00:00-05:00", "2029-11-10T13:00:00Z"),
        ("2029-11-10T07:00Z", "2029-11-10T07:00:00Z"),
        ("2029-11-10T07:00:00.250Z", "2029-11-10T07:00:00.250Z"),
        ("2029-11-10T08:00+0100", "2029-11-10T07:00:00Z"),
        ("2029-07-10T08:00", "2029-07-10T06:00:00Z"),
        // DST: 02:30 does not exist on 25 March (moved forward by the gap: 03:30 CEST) and
        // happens twice on 28 October (the first, still CEST).
        ("2029-03-25T02:30", "2029-03-25T01:30:00Z"),
        ("2029-10-28T02:30", "2029-10-28T00:30:00Z"),
        ("2029-02-30", nil),
        ("2029-13-01", nil),
        ("2029-11-10T24:00", nil),
        ("2029-11-10T08:00+25:00", nil),
        ("10.11.2029", nil),
        ("yesterday", nil),
        ("2029-11-10T8:00", nil),
    ]
}
