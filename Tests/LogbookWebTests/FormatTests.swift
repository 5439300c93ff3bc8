// SPDX-License-Identifier: MIT
import Testing

@testable import LogbookWeb

/// What the pages print (app.js follows the same rules).
@Suite struct FormatTests {
    @Test func numbers() {
        let metric = Format(imperial: false), imperial = Format(imperial: true)
        #expect(metric.distanceText(12_345.6) == "12.35 km")
        #expect(metric.distanceText(242_734.7) == "242.7 km")
        #expect(metric.distanceText(0) == "0.00 km")
        #expect(imperial.distanceText(1609.344) == "1.00 mi")
        #expect(metric.speedText(27.049) == "97 km/h")
        #expect(imperial.speedText(26.8224) == "60 mph")
        #expect(Format.duration(10_786) == "2:59:46")
        #expect(Format.duration(-5) == "0:00:00")
        #expect(Format.durationWords(10_786) == "2 h 59 min")
        #expect(Format.durationWords(45) == "45 s")
        #expect(Format.fixed(-0.001, digits: 2) == "0.00")
        #expect(Format.fixed(.nan, digits: 1) == "–")
        #expect(Format.minute("2029-11-17T11:22:25.844Z") == "2029-11-17 11:22")
    }

    @Test func formFields() {
        let f = FormFields(Array("csrf=ab%2Fc&vehicle=my+car&x&empty=&bad=%zz".utf8))
        #expect(f["csrf"] == "ab/c")
        #expect(f["vehicle"] == "my car")
        #expect(f["x"] == "" && f["empty"] == "")
        #expect(f["bad"] == "%zz")
        #expect(f["missing"] == nil)
    }

    @Test func htmlEscaping() {
        #expect(HTML.escape("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    }
}
