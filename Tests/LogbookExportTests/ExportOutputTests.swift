// SPDX-License-Identifier: MIT
import LogbookCore
import Testing

@testable import LogbookExport

/// Number, time and text formatting: the hot path of every export.
@Suite struct ExportOutputTests {
    func formatted(_ body: (ExportOutput) -> Void) -> String {
        let out = ExportOutput(MemorySink())
        body(out)
        return String(decoding: out.buffer, as: UTF8.self)
    }

    @Test(arguments: [
        (7.5, 7, "7.5"), (12, 2, "12"), (-0.00000004, 7, "0"), (47.3328950001, 7, "47.332895"),
        (-122.4194155, 7, "-122.4194155"), (0.05, 2, "0.05"), (1e-7, 7, "0.0000001"), (359.96, 1, "360"),
        (-3.14159, 0, "-3"), (0, 3, "0"), (99.996, 2, "100"), (1_234_567.25, 1, "1234567.3"),
    ])
    func decimalsRoundAndDropTrailingZeros(value: Double, places: Int, expected: String) {
        #expect(formatted { $0.decimal(value, places: places) } == expected)
    }

    @Test func integersIncludingExtremes() {
        #expect(formatted { $0.integer(0) } == "0")
        #expect(formatted { $0.integer(-42) } == "-42")
        #expect(formatted { $0.integer(Int64.max) } == "9223372036854775807")
        #expect(formatted { $0.integer(Int64.min) } == "-9223372036854775808")
    }

    @Test func timesMatchTheCoreISO8601FormatterAcrossDaysYearsAndMilliseconds() {
        var ns: Int64 = -86_400_000_000_123  // before the epoch, too
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<5000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            ns += Int64(state >> 33) * 1_000_003  // steps of up to ~100 days, odd milliseconds
            let t = GPSTime(nanoseconds: ns)
            #expect(formatted { $0.time(t) } == ISO8601.format(t))
        }
    }

    @Test func xmlEscapesMarkupAndReplacesForbiddenControls() {
        #expect(formatted { $0.xml("a<b>&\"c\"'d'") } == "a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;")
        #expect(formatted { $0.xml("tab\there\u{1}é") } == "tab\there\u{FFFD}é")
    }

    @Test func jsonStringsEscapeQuotesBackslashesAndControls() {
        #expect(formatted { $0.jsonString("a\"b\\c\nd\u{7}ü") } == "\"a\\\"b\\\\c\\nd\\u0007ü\"")
    }

    @Test func csvQuotesOnlyWhereRFC4180Needs() {
        #expect(formatted { $0.csvField("golf") } == "golf")
        #expect(formatted { $0.csvField("Golf, \"blue\"") } == "\"Golf, \"\"blue\"\"\"")
        #expect(formatted { $0.csvField("two\nlines") } == "\"two\nlines\"")
    }

    @Test func bytesReachTheSinkInChunksAndAllOfThem() throws {
        final class CountingSink: ByteSink {
            var writes: [Int] = []
            var bytes: [UInt8] = []
            func write(_ b: UnsafeRawBufferPointer) throws {
                writes.append(b.count)
                bytes.append(contentsOf: b)
            }
        }
        let sink = CountingSink()
        let out = ExportOutput(sink, chunkSize: 1000)
        var expected = ""
        for i in 0..<2000 {
            out.integer(i)
            out.byte(10)
            expected += "\(i)\n"
            try out.flushIfFull()
        }
        try out.flush()
        #expect(String(decoding: sink.bytes, as: UTF8.self) == expected)
        #expect(sink.writes.count > 8)
        #expect(sink.writes.allSatisfy { $0 <= 1005 })
        #expect(out.count == expected.utf8.count)
    }
}
