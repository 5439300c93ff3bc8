// SPDX-License-Identifier: MIT
import LogbookUplink
import Testing

/// The HTTP sinks' URLs: plain http only, host, port and target as configured.
struct HTTPURLTests {
    @Test func urlsParseOrSayWhyNot() throws {
        let u = try HTTPURL.parse("http://traccar.local:5055/").get()
        #expect(u.host == "traccar.local" && u.port == 5055 && u.target == "/")
        let q = try HTTPURL.parse("http://127.0.0.1/api/v1/overland/batches?api_key=k").get()
        #expect(q.port == 80 && q.target == "/api/v1/overland/batches?api_key=k")
        let v6 = try HTTPURL.parse("http://[::1]:8083/pub").get()
        #expect(v6.host == "::1" && v6.port == 8083 && v6.target == "/pub")
        let bare = try HTTPURL.parse("http://h?x=1").get()
        #expect(bare.target == "/?x=1")
        for bad in ["https://h/", "ftp://h", "http://:80/", "http://h:0/", "http://h:99999/", "http://u:p@h/"] {
            #expect(throws: HTTPURL.Problem.self, "\(bad)") { try HTTPURL.parse(bad).get() }
        }
    }
}
