// SPDX-License-Identifier: MIT
import Foundation
import LogbookConfig
import LogbookCore
import LogbookDaemon
import LogbookSettings
import LogbookTestSupport
import Testing

@Suite struct GPIOConfigTests {
    func load(_ toml: String) throws -> Settings {
        let dir = try TemporaryDirectory("gpio-cfg")
        defer { dir.remove() }
        let file = dir.file("logbookd.toml")
        try toml.write(toFile: file, atomically: true, encoding: .utf8)
        return try Settings.load(file: file, environment: [:], overrides: .init())
    }

    func error(_ toml: String) -> ConfigError? {
        do {
            _ = try load(toml)
            return nil
        } catch let e as ConfigError {
            return e
        } catch {
            return nil
        }
    }

    @Test func aGPIOSourceParsesWithAllKeys() throws {
        let c = try load(
            """
            [[vehicle]]
            id = "golf"
            [[source]]
            type = "gpio"
            chip = "/dev/gpiochip1"
            line = 17
            active_low = true
            debounce_ms = 350
            name = "kl15"
            vehicle = "golf"
            """)
        #expect(c.sources.count == 1)
        let s = try #require(c.sources.first)
        #expect(s.kind == .gpio)
        #expect(s.chip == "/dev/gpiochip1")
        #expect(s.line == 17)
        #expect(s.activeLow)
        #expect(s.debounceMilliseconds == 350)
        #expect(s.vehicle == "golf")
        #expect(s.signal(isOn: true) == VehicleSignal(kind: .gpio, name: "kl15", vehicle: "golf", isOn: true))
        #expect(s.signal(isOn: true).reason.rawValue == "gpio:kl15")
    }

    @Test func defaults() throws {
        let c = try load("[[source]]\ntype = \"gpio\"\nline = 4\n")
        let s = try #require(c.sources.first)
        #expect(s.chip == "gpiochip0")
        #expect(s.line == 4)
        #expect(s.activeLow == false)
        #expect(s.debounceMilliseconds == 200)
        #expect(s.name == "ignition")
        #expect(s.vehicle == nil)
    }

    @Test func aMissingLineIsNamed() {
        let e = error("[[source]]\ntype = \"gpio\"\n")
        #expect(e?.key == "source[0].line")
        #expect(e?.problem == "is required")
    }

    @Test func badValuesAreNamed() {
        #expect(error("[[source]]\ntype = \"gpio\"\nline = \"17\"\n")?.key == "source[0].line")
        #expect(error("[[source]]\ntype = \"gpio\"\nline = -1\n")?.key == "source[0].line")
        #expect(error("[[source]]\ntype = \"gpio\"\nline = 1\nactive_low = \"yes\"\n")?.key == "source[0].active_low")
        #expect(error("[[source]]\ntype = \"gpio\"\nline = 1\ndebounce_ms = 60001\n")?.key == "source[0].debounce_ms")
        #expect(error("[[source]]\ntype = \"gpio\"\nline = 1\nchip = 0\n")?.key == "source[0].chip")
        #expect(error("[[source]]\ntype = \"gpio\"\nline = 1\npin = 3\n")?.key == "source[0].pin")
        #expect(
            error("[[source]]\ntype = \"motion\"\n[[source]]\ntype = \"gpio\"\n")?.key == "source[1].line",
            "the index is the source's own")
    }
}
