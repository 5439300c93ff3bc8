// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Testing

/// The later steps of ``GarageWriteTests``: the dashboard, the report, service, imports.
extension GarageWriteTests {
    /// Runs blocking work (a child process) on a thread of its own, off the concurrency pool.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { done in
            Thread { done.resume(with: Result { try body() }) }.start()
        }
    }

    /// dashboard.json once `ready` holds, polled for up to 10 s; nil if it never does.
    static func waitForDashboard(_ s: Setup, _ ready: ([String: Any]) -> Bool) async throws -> [String: Any]? {
        var deadline = TestDeadline(.seconds(10))
        while !deadline.passed {
            if let doc = readJSONFile(s.dir.file("run/dashboard.json")), ready(doc) { return doc }
            await deadline.sleep(for: .milliseconds(100))
        }
        return nil
    }

    /// Classifies the recorded trip (no daemon now: the direct path), then the yearly report:
    /// its chain head is the journal's at the sequence it names; the HTML prints on A4.
    func checkReport(_ s: Setup) async throws {
        let classify = try await s.logbook(["trips", "classify", "1", "business", "--purpose", "Client visit", "--partner", "ACME"])
        #expect(classify.status == 0, "\(classify.err)")
        let csvPath = s.dir.file("report.csv")
        // The replayed drive's GPS clock reads 2029 (the log predates a week rollover).
        let csv = try await s.logbook(["report", "--year", "2029", "--format", "csv", "-o", csvPath])
        #expect(csv.status == 0, "\(csv.err)")
        let lines = try String(contentsOfFile: csvPath, encoding: .utf8).split(separator: "\n").map(String.init)
        print("garage-report: \(lines.joined(separator: "\n"))")
        #expect(lines.count >= 4)
        #expect(lines.first?.hasPrefix("trip,date,start_utc,end_utc,vehicle,start_odometer_km") == true)
        #expect(lines[1].hasPrefix("1,2029-") && lines[1].contains(",business,Client visit,ACME,"))
        let head = try #require(lines.dropLast().last?.split(separator: ",").map(String.init))
        #expect(head.count == 3 && head[0] == "#chain_head")
        let seq = try #require(UInt64(head[1]))
        let journal = s.dir.file("state/journal")
        let position = try #require(try JournalTail.position(at: seq, in: journal))
        #expect(head[2] == position.chainHead.map { String(format: "%02x", $0) }.joined(), "the report's chain head is the journal's")
        #expect(seq == (try JournalReader(directory: journal).entries().last?.sequence))
        let checkpoint = try JournalReader(directory: journal).checkpoints().last?.sequence
        #expect(lines.last == "#checkpoint_seq,\(checkpoint.map(String.init) ?? "none")")

        let html = s.dir.file("report.html")
        #expect(try await s.logbook(["report", "--year", "2029", "--format", "html", "-o", html]).status == 0)
        let pdf = s.dir.file("report.pdf"), png = s.dir.file("report.png")
        let statuses = try await GarageWriteTests.onThread { () -> [Int32] in
            var statuses: [Int32] = []
            for output in ["--print-to-pdf=\(pdf)", "--screenshot=\(png)"] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/chromium")
            p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-pdf-header-footer",
                           "--user-data-dir=\(s.dir.file("profile-\(output.prefix(8))"))", "--window-size=1123,794", output, "file://\(html)"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            statuses.append(p.terminationStatus)
            }
            return statuses
        }
        #expect(statuses == [0, 0], "chromium --print-to-pdf, --screenshot")
        let pdfBytes = try Data(contentsOf: URL(fileURLWithPath: pdf))
        #expect(pdfBytes.starts(with: Array("%PDF".utf8)) && pdfBytes.count > 2000)
        // Not blank: the share of pixels that are not near-white (Pillow, Debian's python3-pil).
        let py = Process()
        py.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        py.arguments = ["-c", "import sys; from PIL import Image; im = Image.open(sys.argv[1]).convert('L'); h = im.histogram(); print(im.size[0], im.size[1], sum(h[:200]) / (im.size[0] * im.size[1]))", png]
        let text = try await GarageWriteTests.onThread { () -> String in
            let out = Pipe()
            py.standardOutput = out
            try py.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            py.waitUntilExit()
            return text
        }
        let inked = Double(text.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        print("garage-report: PDF \(pdfBytes.count) bytes; screenshot \(text.trimmingCharacters(in: .whitespacesAndNewlines)) (width height inked share)")
        #expect(inked > 0.005 && inked < 0.6)
    }
}
