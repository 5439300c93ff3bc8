// SPDX-License-Identifier: MIT
import Foundation
import LogbookTestSupport
import Testing

/// `--litres 45,3` means 45.3 litres, as the web form's `45,3` does; an ambiguous number
/// (`1.234,5`) is a usage error naming the option, and nothing is written.
@Suite(.serialized, .timeLimit(.minutes(5))) struct NumberInputTests {
    @Test func theCLITakesADecimalCommaAsTheWebFormDoes() async throws {
        let dir = try TemporaryDirectory("lb-num")
        defer { dir.remove() }
        let cli = try await CLI.onCopy(of: .swiss, in: dir)
        var odometer = 12_000
        var accepted = 0, refused = 0
        for (typed, litres) in NumberInputCases.litres {
            odometer += 500
            let r = try cli.run([
                "fuel", "add", "--vehicle", "golf", "--odometer", "\(odometer)", "--litres", typed, "--price", "80,15", "--currency", "EUR",
                "--json",
            ])
            if let litres {
                #expect(r.status == 0, "\(typed): \(r.err)")
                let fills = try JSONSerialization.jsonObject(with: Data(try cli.ok(["fuel", "list", "--json"]).out.utf8)) as? [[String: Any]]
                let fill = fills?.first { ($0["odometer_km"] as? Double) == Double(odometer) }
                #expect(fill?["litres"] as? Double == litres && fill?["price"] as? Double == 80.15, "\(typed): \(String(describing: fill))")
                accepted += 1
            } else {
                #expect(r.status == 64 && r.err.contains("--litres"), "\(typed): \(r.status) \(r.err)")
                refused += 1
            }
        }
        let count = (try JSONSerialization.jsonObject(with: Data(try cli.ok(["fuel", "list", "--json"]).out.utf8)) as? [Any])?.count
        #expect(count == accepted, "a refused number writes nothing")
        print("number-input: cli: \(accepted) accepted (decimal point or comma), \(refused) refused with exit 64")
    }
}
