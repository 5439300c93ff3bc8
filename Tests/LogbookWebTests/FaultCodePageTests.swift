// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Testing

@testable import LogbookWeb

/// The Live page shows the trouble codes the daemon's OBD sources report (live.json's
/// `obd[].fault_codes`, in the shape docs/obd.md shows), stored first, and hides the card
/// without any.
@Suite(.serialized) struct FaultCodePageTests {
    static func document(seq: Int, faults: String) -> String {
        #"{"schema":1,"seq":\#(seq),"updated_at":"2029-11-17T11:22:25Z","gps":{"connected":false},"trip":null,"last_trip":null,"#
            + #""obd":[{"source":"elm","vehicle":"golf","connected":true,"car_answers":true,"engine_running":false,"#
            + #""fault_codes":[\#(faults)],"rejected":0,"timeouts":0,"connections":1}]}"#
    }

    @Test func theLivePageListsTheCarsFaultCodesStoredFirst() async throws {
        let dir = try TemporaryDirectory("wdtc")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("run"), withIntermediateDirectories: true)
        try await WebHarness.run(WebHarness.configuration(dir)) { _, client in
            let codes = #"{"code":"P0171","pending":true,"description":"System Too Lean (Bank 1)"},"#
                + #"{"code":"P0133","pending":false,"description":"O2 Sensor Circuit Slow Response (Bank 1 Sensor 1)"},"#
                + #"{"code":"P1234","pending":false,"description":null}"#
            try Self.document(seq: 1, faults: codes).write(toFile: dir.file("run/live.json"), atomically: true, encoding: .utf8)
            let page = try await client.request("GET", "/")
            #expect(page.status == 200)
            let card = try #require(page.text.firstRange(of: "<article class=\"card faults\"").map { page.text[$0.lowerBound...] })
            let head = card.prefix { $0 != ">" }
            #expect(!head.contains("hidden"), "\(head)")
            let p0133 = try #require(card.firstRange(of: "<strong>P0133</strong> O2 Sensor Circuit Slow Response (Bank 1 Sensor 1)"))
            let p1234 = try #require(card.firstRange(of: "<strong>P1234</strong> maker-specific code"))
            let p0171 = try #require(card.firstRange(of: "<strong>P0171</strong> System Too Lean (Bank 1) <span class=\"muted\">(pending · golf)</span>"))
            #expect(p0133.lowerBound < p1234.lowerBound && p1234.lowerBound < p0171.lowerBound, "stored first, then by code")
            // The API hands app.js the same document, which redraws the list from it.
            let api = try await client.request("GET", "/api/live")
            #expect(api.json?["obd"] != nil && api.text.contains("\"P0133\""))

            // Cleared: the card is hidden and empty.
            try Self.document(seq: 2, faults: "").write(toFile: dir.file("run/live.json"), atomically: true, encoding: .utf8)
            let cleared = try await client.request("GET", "/")
            #expect(cleared.text.contains("<article class=\"card faults\" data-show=\"faults\" hidden>"))
            #expect(!cleared.text.contains("<strong>P0133</strong>"))
        }
    }
}
