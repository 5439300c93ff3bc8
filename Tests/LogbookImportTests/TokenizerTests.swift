// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookImport
import Testing

/// The streaming XML and JSON tokenizers on small documents, good and bad.
struct TokenizerTests {
    static func xmlTokens(_ text: String) throws -> [XMLToken] {
        var t = XMLTokenizer(ByteInput(bytes: Array(text.utf8)))
        var out: [XMLToken] = []
        while let token = try t.next() { out.append(token) }
        return out
    }

    static func xmlIssue(_ text: String) -> ImportIssue? {
        do {
            _ = try xmlTokens(text)
            return nil
        } catch let issue as ImportIssue {
            return issue
        } catch {
            return nil
        }
    }

    @Test func xmlElementsAttributesEntitiesCDATAAndComments() throws {
        let tokens = try Self.xmlTokens("""
            <?xml version="1.0"?>
            <!DOCTYPE gpx [ <!ENTITY x "y"> ]>
            <!-- a comment with <tags> -->
            <a x='1 &amp; 2' y="&#65;&#x42;"><b/>t &lt;3<![CDATA[<raw>]]></a>
            """)
        #expect(tokens == [
            .start(name: "a", attributes: [("x", "1 & 2"), ("y", "AB")]), .start(name: "b", attributes: []), .end(name: "b"),
            .text("t <3"), .text("<raw>"), .end(name: "a"),
        ])
    }

    @Test func xmlProblemsNameTheLine() {
        #expect(Self.xmlIssue("<a>\n<b>\n</a>")?.line == 3)
        #expect(Self.xmlIssue("<a>\n<b>\n</a>")?.message == "</a> closes <b>")
        #expect(Self.xmlIssue("<a>\n<b>text")?.message.contains("truncated") == true)
        #expect(Self.xmlIssue("<a x=1></a>")?.message.contains("not quoted") == true)
        #expect(Self.xmlIssue("<a>&bogus;</a>")?.message.contains("unknown entity") == true)
        #expect(Self.xmlIssue("<a><b attr=\"v") != nil)
    }

    static func jsonTokens(_ text: String) throws -> [JSONToken] {
        var t = JSONTokenizer(ByteInput(bytes: Array(text.utf8)))
        var out: [JSONToken] = []
        while let token = try t.next() { out.append(token) }
        return out
    }

    static func jsonIssue(_ text: String) -> ImportIssue? {
        do {
            _ = try jsonTokens(text)
            return nil
        } catch let issue as ImportIssue {
            return issue
        } catch {
            return nil
        }
    }

    @Test func jsonTokensAndEscapes() throws {
        let tokens = try Self.jsonTokens(#"{"a": [1, -2.5e1, true, null, {}], "b\u00e9": "x\"\n\ud83d\ude97", "c": []}"#)
        #expect(tokens == [
            .beginObject, .key("a"), .beginArray, .number(1), .number(-25), .bool(true), .null, .beginObject, .endObject,
            .endArray, .key("bé"), .string("x\"\n🚗"), .key("c"), .beginArray, .endArray, .endObject,
        ])
    }

    @Test func jsonProblemsAreRefused() {
        for bad in [#"{"a":}"#, #"[1,]"#, #"{"a" 1}"#, #"{"a":1"#, #"[1 2]"#, #"{,}"#, #"{"a":1}{"#, #"["abc"#, "[tru]"] {
            #expect(Self.jsonIssue(bad) != nil, "\(bad)")
        }
        #expect(Self.jsonIssue("[1,\n2,\n]")?.line == 3)
    }

    @Test func isoTimesWithOffsets() {
        #expect(ISO8601.parseWithOffset("2014-07-15T18:00:00.000-04:00") == ISO8601.parse("2014-07-15T22:00:00Z"))
        #expect(ISO8601.parseWithOffset("2024-01-02T03:04:05+0100") == ISO8601.parse("2024-01-02T02:04:05Z"))
        #expect(ISO8601.parseWithOffset("2024-01-02T03:04:05.123456789123Z") == ISO8601.parse("2024-01-02T03:04:05.123456789Z"))
        #expect(ISO8601.parseWithOffset("2024-01-02T03:04:05") == nil, "no zone: could be local time")
    }
}
