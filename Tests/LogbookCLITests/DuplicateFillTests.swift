// SPDX-License-Identifier: MIT
import Foundation
import LogbookTestSupport
import Testing

/// A fill-up with the same vehicle, odometer and litres as one logged already is refused
/// (exit 64, naming the other fill-up and `--force`) and nothing is written; `--force` logs it.
@Suite(.serialized, .timeLimit(.minutes(5))) struct DuplicateFillTests {
    @Test func aDuplicateFillUpIsRefusedUnlessForced() async throws {
        let dir = try TemporaryDirectory("lb-dup")
        defer { dir.remove() }
        let cli = try await CLI.onCopy(of: .swiss, in: dir)
        func count() throws -> Int {
            (try JSONSerialization.jsonObject(with: Data(try cli.ok(["fuel", "list", "--json"]).out.utf8)) as? [Any])?.count ?? -1
        }
        let fill = ["fuel", "add", "--vehicle", "golf", "--odometer", "30500", "--litres", "41.2", "--price", "70", "--currency", "EUR", "--no-position"]
        try cli.ok(fill + ["--at", "2029-11-10T08:00Z"])
        let before = try count()
        let again = try cli.run(fill + ["--at", "2029-11-10T08:05Z"])
        #expect(again.status == 64 && again.err.contains("same vehicle, odometer and litres") && again.err.contains("--force"), "\(again.err)")
        #expect(try count() == before, "a refused fill-up writes nothing")
        // Other litres at the same odometer is another fill-up (a top-up): accepted.
        try cli.ok(["fuel", "add", "--vehicle", "golf", "--odometer", "30500", "--litres", "3", "--price", "5", "--currency", "EUR", "--no-position", "--at", "2029-11-10T08:06Z"])
        try cli.ok(fill + ["--at", "2029-11-10T08:10Z", "--force"])
        #expect(try count() == before + 2)
        print("duplicate-fill: cli: refused without --force, logged with it")
    }
}
