// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Testing

/// Every binary answers `--version` with its name and the one version constant, exit 0.
@Suite struct VersionTests {
    @Test(arguments: ["logbook", "logbookd", "logbook-web", "logbook-uplink"])
    func everyBinaryPrintsTheVersion(program: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestPaths.product(program))
        p.arguments = ["--version"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        #expect(text == "\(program) \(LogbookVersion.current)\n", "\(text)")
        print("version: \(text.trimmingCharacters(in: .newlines))")
    }
}
