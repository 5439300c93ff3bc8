// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookRecords
import LogbookOBD

/// The `obd` harness. The first byte picks the request the rest answers; every decoder runs
/// on the parsed reply and what it returns must be a value the quantity can have (a broken
/// bound is a crash on purpose). Then an ``ELMSession`` gets the input, split at `>`, as the
/// replies to whatever it asks, so the dialogue meets garbage in every state.
enum OBDHarness {
    static let requests: [OBDRequest] = [
        .reset, .echoOff, .voltage, .supportedPIDs(base: 0), .supportedPIDs(base: 0xA0), .vehicleInfoPIDs, .vin, .rpm, .speed,
        .fuelLevel, .odometer, .storedCodes, .pendingCodes,
    ]

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let first = bytes.first else { return }
        let request = requests[Int(first) % requests.count]
        // Past 8 KiB nothing new happens (a reply over 4 KiB is refused whole): the cap keeps
        // long inputs from slowing the run.
        let reply = Array(bytes.dropFirst().prefix(8192))
        let r = ELMResponseParser.parse(reply, command: request.command, data: request.expectsData)
        check(r)
        var session = ELMSession()
        var now = MonotonicInstant(seconds: 1)
        for chunk in reply.split(separator: 62, omittingEmptySubsequences: false).prefix(32) {
            guard session.failure == nil else { break }
            var waits = 0
            while session.nextRequest(at: now) == nil {
                now = max(now.advanced(bySeconds: 0.05), session.nextWake)
                waits += 1
                guard session.failure == nil else { return }
                precondition(waits < 10_000, "the session never asks anything again")
            }
            now = now.advanced(bySeconds: 0.1)
            _ = session.handle(chunk.count % 7 == 6 ? .timedOut : .reply(Array(chunk)), at: now)
        }
    }

    private static func check(_ r: ELMResponse) {
        if case .success(let v) = OBDDecoder.rpm(r) { precondition(v >= 0 && v <= 16_383.75, "rpm \(v)") }
        if case .success(let v) = OBDDecoder.speed(r) { precondition(v >= 0 && v <= 255, "speed \(v)") }
        if case .success(let v) = OBDDecoder.fuelLevel(r) { precondition(v >= 0 && v <= 100, "fuel \(v)") }
        if case .success(let v) = OBDDecoder.odometer(r) { precondition(v >= 0 && v <= 429_496_729.5, "odometer \(v)") }
        if case .success(let v) = OBDDecoder.voltage(r) { precondition(v >= 0 && v <= 40, "voltage \(v)") }
        if case .success(let b) = OBDDecoder.bitmap(r, service: 1, base: 0) { precondition(b.count == 4) }
        if case .success(let codes) = OBDDecoder.troubleCodes(r, service: 3) {
            for code in codes { precondition(TroubleCode(code.description) == code, "code \(code) does not round-trip") }
        }
        if case .success(let vin) = OBDDecoder.vin(r) {
            precondition(vin.text.utf8.count == 17 && (try? VIN.parse(vin.text).get()) == vin, "VIN \(vin)")
            _ = vin.modelYear(currentYear: 2026)
            _ = vin.manufacturer
        }
    }
}
