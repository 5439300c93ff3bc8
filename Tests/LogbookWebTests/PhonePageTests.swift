// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookExport
import LogbookTestSupport
import Testing

@testable import LogbookWeb

/// Issue 23 part 6 on the server side (the browser side is scripts/web_phone.py): place names
/// on the trips list, the trip page and `/api/trips/:id`; no class preselected; Stop asks
/// first; reasons in words; the chart's end labels inside the picture; the Setup check page
/// with `logbook doctor`'s failing checks and the Live page's banner.
@Suite(.serialized) struct PhonePageTests {
    @Test(.timeLimit(.minutes(2)))
    func tripsNameTheirEndsAsTheCLIDoesAndNoClassIsPreselected() async throws {
        let dir = try TemporaryDirectory("wphone")
        defer { dir.remove() }
        try await RoutesPageTests.write(dir.file("state"))  // trips between the named places home and office
        try await WebHarness.run(WebHarness.configuration(dir)) { _, client in
            let web = try await WebSession.open(client)
            let list = try await web.get("/trips")
            #expect(list.text.contains("<span class=\"small place\">home → office</span>"), "\(list.text)")
            #expect(list.text.contains("<a href=\"/trips/1\" class=\"row-link\" aria-label=\"Trip 1\">1</a>"))
            let page = try await web.get("/trips/1")
            #expect(page.text.contains("From: <span id=\"start-place\">home</span><br>To: <span id=\"end-place\">office</span>"), "\(page.text)")
            #expect(page.text.contains("<option value=\"\" selected>Choose a class…</option>"), "\(page.text)")
            #expect(!page.text.contains("value=\"business\" selected"))
            #expect(page.text.contains("<span id=\"end-reason\">By hand</span>"))
            let api = try await web.get("/api/trips/2")
            #expect(api.json?["start_place"] == .string("office") && api.json?["end_place"] == .string("home"), "\(api.text)")
            // The list names them with the same namer (as `logbook trips list --json`).
            let listed = try await web.get("/api/trips")
            let named = listed.json?["trips"]?.items?.first { $0["id"] == .string("2") }
            #expect(named?["start_place"] == .string("office") && named?["end_place"] == .string("home"), "\(listed.text)")

            _ = try await web.form("/trips/1/class", [("class", "private")])
            let classified = try await web.get("/trips/1")
            #expect(classified.text.contains("<option value=\"private\" selected>private</option>"), "\(classified.text)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func stopAsksFirstAndTheSetupCheckListsWhatFails() async throws {
        let dir = try TemporaryDirectory("wsetup")
        defer { dir.remove() }
        var configuration = WebHarness.configuration(dir)
        configuration.vehicles = []
        try await WebHarness.run(configuration) { _, client in
            let web = try await WebSession.open(client)
            // One tap on Stop (no `confirm=yes`, as a page without script sends it) asks on the Live page.
            let ask = try await web.form("/trip/stop", [])
            #expect(ask.status == 303 && ask.header("Location") == "/?confirm=stop", "\(ask)")
            let question = try await web.get("/?confirm=stop")
            #expect(question.text.contains("<div id=\"stop-confirm\" class=\"confirm\" role=\"alertdialog\" aria-labelledby=\"stop-question\">"))
            #expect(question.text.contains("id=\"stop-form\" hidden"))
            // Confirmed, it goes to logbookd (not running here: the page says so).
            let sent = try await web.form("/trip/stop", [("confirm", "yes")])
            #expect(sent.header("Location") == "/?error=daemon_unreachable", "\(sent)")

            // No vehicle, no source, no daemon: the Setup check says so, with what to do.
            let setup = try await web.get("/setup")
            for name in ["vehicle", "sources", "daemon"] {
                #expect(setup.text.contains("data-check=\"\(name)\" data-ok=\"false\""), "\(name): \(setup.text)")
            }
            #expect(setup.text.contains("What to do:</strong> add a [[vehicle]]"))
            #expect(setup.text.contains("id=\"setup-summary\" role=\"alert\""))
            let live = try await web.get("/")
            #expect(live.text.contains("id=\"setup-banner\"") && live.text.contains("no vehicle is configured"), "\(live.text)")
            #expect(live.text.contains("<a href=\"/setup\">Setup check</a>"))
        }
    }

    @Test func reasonsReadAsWordsAndTheRawCodeStaysForTheCLI() {
        #expect(TripText.reasonWords("power:ACAD") == "Power supply (ACAD)")
        #expect(TripText.reasonWords("manual") == "By hand")
        #expect(TripText.reasonWords("motion") == "Motion rule")
        #expect(TripText.reasonWords("something-new") == "something-new")
        #expect(TripText.reason("power:ACAD") == "power supply ACAD (power:ACAD)")
        #expect(TripText.reason("manual") == "by hand (logbook trip start/stop) (manual)")
        #expect(ReasonWords.dataBlock.contains("\"power\":\"Power supply\""))
    }

    @Test func theChartsEndLabelsEndInsideThePicture() {
        #expect(EconomyChart.anchor(0, of: 5) == "start" && EconomyChart.anchor(4, of: 5) == "end")
        #expect(EconomyChart.anchor(2, of: 5) == "middle" && EconomyChart.anchor(0, of: 1) == "middle")
    }
}
