// SPDX-License-Identifier: MIT
import Foundation
import LogbookConfig
import LogbookTestSupport
import Testing

@Suite struct TOMLParserTests {
    private func parse(_ text: String) throws -> ConfigValue { try ConfigValue.parseTOML(text, file: "t.toml") }

    private func value(_ root: ConfigValue, _ path: String) -> ConfigValue? {
        var v: ConfigValue? = root
        for key in path.split(separator: ".") {
            guard case .table(let t)? = v else { return nil }
            v = t[String(key)]
        }
        return v
    }

    /// The error text for `text`, or nil when it parses.
    private func problem(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func shippedConfigurationFile() throws {
        let path = TestPaths.packageRoot.appendingPathComponent("config/logbookd.toml").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let root = try parse(text)
        #expect(value(root, "state_dir") == .string("/var/lib/logbook"))
        #expect(value(root, "gpsd.address") == .string("127.0.0.1:2947"))
        #expect(value(root, "live.interval_s") == .double(1.0))
        #expect(value(root, "journal.commit_interval_s") == .integer(5))
        #expect(value(root, "trip.power_off_grace_s") == .integer(30))
        // Commented-out keys stay absent.
        #expect(value(root, "control.socket") == nil)
        guard case .table(let top) = root else { Issue.record("not a table"); return }
        #expect(top.count >= 8)
    }

    @Test func stringsAndEscapes() throws {
        let root = try parse(#"""
            basic = "tab\there \"q\" back\\slash \u00e9 \U0001F600"
            literal = 'C:\path\n'
            multi = """
            one
            two"""
            trimmed = """\
                joined \
                here"""
            quotes = """a ""quoted"" end"""""
            lit_multi = '''
            raw \n line'''
            "quoted key" = 1
            'literal key' = 2
            a . b . "c.d" = 3
            empty = ""
            """#)
        #expect(value(root, "basic") == .string("tab\there \"q\" back\\slash é 😀"))
        #expect(value(root, "literal") == .string(#"C:\path\n"#))
        #expect(value(root, "multi") == .string("one\ntwo"))
        #expect(value(root, "trimmed") == .string("joined here"))
        #expect(value(root, "quotes") == .string(#"a ""quoted"" end"""#))
        #expect(value(root, "lit_multi") == .string(#"raw \n line"#))
        #expect(value(root, "quoted key") == .integer(1))
        #expect(value(root, "literal key") == .integer(2))
        guard case .table(let b)? = value(root, "a.b") else { Issue.record("a.b missing"); return }
        #expect(b["c.d"] == .integer(3))
        #expect(value(root, "empty") == .string(""))
    }

    @Test func numbersBooleansAndDates() throws {
        let root = try parse("""
            i = +1_000
            neg = -17
            zero = 0
            hex = 0xDEAD_beef
            oct = 0o755
            bin = 0b1101
            f1 = 3.1415
            f2 = -0.01
            f3 = 5e+22
            f4 = 6.626e-34
            f5 = 224_617.445_991
            pinf = inf
            ninf = -inf
            t = true
            f = false
            odt = 1979-05-27T07:32:00.999-07:00
            ldt = 1979-05-27 07:32:00
            ld = 1979-05-27
            lt = 00:32:00.5
            """)
        #expect(value(root, "i") == .integer(1000))
        #expect(value(root, "neg") == .integer(-17))
        #expect(value(root, "zero") == .integer(0))
        #expect(value(root, "hex") == .integer(0xDEAD_BEEF))
        #expect(value(root, "oct") == .integer(0o755))
        #expect(value(root, "bin") == .integer(13))
        #expect(value(root, "f1") == .double(3.1415))
        #expect(value(root, "f2") == .double(-0.01))
        #expect(value(root, "f3") == .double(5e22))
        #expect(value(root, "f4") == .double(6.626e-34))
        #expect(value(root, "f5") == .double(224_617.445_991))
        #expect(value(root, "pinf") == .double(.infinity))
        #expect(value(root, "ninf") == .double(-.infinity))
        #expect(value(root, "t") == .bool(true))
        #expect(value(root, "f") == .bool(false))
        #expect(value(root, "odt") == .string("1979-05-27T07:32:00.999-07:00"))
        #expect(value(root, "ldt") == .string("1979-05-27 07:32:00"))
        #expect(value(root, "ld") == .string("1979-05-27"))
        #expect(value(root, "lt") == .string("00:32:00.5"))
        guard case .double(let nan)? = try value(parse("n = nan"), "n") else { Issue.record("nan"); return }
        #expect(nan.isNaN)
    }

    @Test func tablesArraysAndInlineTables() throws {
        let root = try parse("""
            top = 1
            [server]
            ports = [ 8000, 8001,
              # a comment inside
              8002, ]
            nested = [[1, 2], ["a"], []]
            [server.tls]
            on = true
            [[vehicle]]
            id = "golf"
            [vehicle.engine]
            fuel = "petrol"
            [[vehicle]]
            id = "zoe"
            point = { x = 1, y = { z = [2] } }
            [x.y.z]
            w = 0
            [x]
            v = 1
            """)
        #expect(value(root, "top") == .integer(1))
        #expect(value(root, "server.ports") == .array([.integer(8000), .integer(8001), .integer(8002)]))
        #expect(value(root, "server.nested") == .array([.array([.integer(1), .integer(2)]), .array([.string("a")]), .array([])]))
        #expect(value(root, "server.tls.on") == .bool(true))
        guard case .array(let vehicles)? = value(root, "vehicle"), vehicles.count == 2 else {
            Issue.record("two vehicles expected")
            return
        }
        #expect(value(vehicles[0], "id") == .string("golf"))
        #expect(value(vehicles[0], "engine.fuel") == .string("petrol"))
        #expect(value(vehicles[1], "id") == .string("zoe"))
        #expect(value(vehicles[1], "point.y.z") == .array([.integer(2)]))
        #expect(value(root, "x.y.z.w") == .integer(0))
        #expect(value(root, "x.v") == .integer(1))
    }

    @Test func syntaxErrorsNameLineAndColumn() {
        #expect(problem("a = 1\nb = \"open\n") == "syntax error at line 2, column 10: newline in a single-line string (in t.toml)")
        #expect(problem("a = 1\na = 2") == "syntax error at line 2, column 1: duplicate key 'a' (in t.toml)")
        #expect(problem("[t]\n[t]") == "syntax error at line 2, column 1: table [t] defined twice (in t.toml)")
        #expect(problem("x = 01") == "syntax error at line 1, column 5: invalid value '01' (in t.toml)")
        #expect(problem("x =") == "syntax error at line 1, column 4: expected a value (in t.toml)")
        #expect(problem("x = 1 2") == "syntax error at line 1, column 7: expected the end of the line (in t.toml)")
        #expect(problem("é = 1")?.hasPrefix("syntax error at line 1, column 1: expected a key") == true)
        #expect(problem("a = 1\n  b.c = { d = 1,\n e = 2 }")?.hasPrefix("syntax error at line 2, column 17:") == true)
        #expect(problem("a = { b = 1, }") != nil)
        #expect(problem("a = \"\\q\"") == "syntax error at line 1, column 6: invalid escape '\\q' (in t.toml)")
        #expect(problem("a = 1__0") != nil)
        #expect(problem("a = 1_") != nil)
        #expect(problem("a = 0x") != nil)
        #expect(problem("a = 1.") != nil)
        #expect(problem("a = .5") != nil)
        #expect(problem("a = 99999999999999999999") != nil)
        #expect(problem("a = [1 2]") != nil)
        #expect(problem("a = 1\na.b = 2") != nil)
        #expect(problem("a = [1]\n[[a]]") != nil)
        #expect(problem("a = {b = 1}\n[a]") != nil)
        #expect(problem("[a]]") != nil)
        #expect(problem("[[a]\n") != nil)
        #expect(problem("a = 'x") != nil)
        #expect(problem("a = \"\"\"x") != nil)
        #expect(problem("a = \"\\u12\"") != nil)
        #expect(problem("a = \"\\uD800\"") != nil)
    }

    @Test func emptyAndCommentOnlyDocuments() throws {
        #expect(try parse("") == .table([:]))
        #expect(try parse("# only\n\n   # comments\r\n") == .table([:]))
        #expect(try parse("a = 1\r\nb = 'x' # note\r\n") == .table(["a": .integer(1), "b": .string("x")]))
    }
}
