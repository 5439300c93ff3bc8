// SPDX-License-Identifier: MIT
public import LogbookRecords
/// Why a request gave no value.
public enum OBDFailure: Error, Sendable, Hashable {
    /// `NO DATA`, `UNABLE TO CONNECT`, or a negative response (`7F`): the car did not answer.
    case noAnswer
    /// A bus or adapter error line (`CAN ERROR`, `BUS INIT: …ERROR`, `STOPPED`, `?`).
    case adapterError(String)
    /// A reply that does not parse or does not fit the request: counted as garbage.
    case rejected(ELMRejection)
}

/// Decoders from parsed replies to values (SAE J1979 formulas). Each checks the service
/// byte, the PID and the exact data length; anything else is refused, never guessed at.
public enum OBDDecoder {
    /// Engine speed, PID 0C: (256·A + B) / 4 rpm. Several ECUs (a hybrid's engine and
    /// hybrid controller) may answer: the highest value counts ("is an engine turning?").
    public static func rpm(_ r: ELMResponse) -> Result<Double, OBDFailure> {
        data(r, service: 0x01, pid: 0x0C, length: 2).map { all in all.map { Double(Int($0[0]) << 8 | Int($0[1])) / 4 }.max() ?? 0 }
    }

    /// Vehicle speed, PID 0D: A km/h.
    public static func speed(_ r: ELMResponse) -> Result<Double, OBDFailure> {
        data(r, service: 0x01, pid: 0x0D, length: 1).map { Double($0[0][0]) }
    }

    /// Fuel tank level input, PID 2F: A · 100 / 255 %.
    public static func fuelLevel(_ r: ELMResponse) -> Result<Double, OBDFailure> {
        data(r, service: 0x01, pid: 0x2F, length: 1).map { Double($0[0][0]) * 100 / 255 }
    }

    /// Odometer, PID A6: (A·2²⁴ + B·2¹⁶ + C·2⁸ + D) / 10 km.
    public static func odometer(_ r: ELMResponse) -> Result<Double, OBDFailure> {
        data(r, service: 0x01, pid: 0xA6, length: 4).map { m in
            let d = m[0]
            return Double(UInt32(d[0]) << 24 | UInt32(d[1]) << 16 | UInt32(d[2]) << 8 | UInt32(d[3])) / 10
        }
    }

    /// A supported-PID bitmap (`0100`…`01A0`, `0900`): its 4 bytes, every answering ECU's
    /// together (a PID one of them supports is supported).
    public static func bitmap(_ r: ELMResponse, service: UInt8, base: UInt8) -> Result<[UInt8], OBDFailure> {
        data(r, service: service, pid: base, length: 4).map { all in (0..<4).map { i in all.reduce(0) { $0 | $1[i] } } }
    }

    /// Trouble codes of mode 03 (stored) or 07 (pending), every ECU's together, sorted.
    ///
    /// CAN replies start with a count byte (`43 02 01 33 04 20`); older protocols send bare
    /// pairs padded with `00 00` (`43 01 33 04 20 00 00`). The two are told apart by
    /// parity: after the service byte, an odd number of bytes must begin with its count.
    public static func troubleCodes(_ r: ELMResponse, service: UInt8) -> Result<[TroubleCode], OBDFailure> {
        messages(r, service: service, pid: nil).flatMap { all in
            var codes = Set<TroubleCode>()
            for m in all {
                var body = m.dropFirst()
                if body.count % 2 == 1 {
                    guard Int(body.first!) == body.count / 2 else { return .failure(.rejected(.badCount)) }
                    body = body.dropFirst()
                }
                var i = body.startIndex
                while i < body.endIndex {
                    if let code = TroubleCode(high: body[i], low: body[i + 1]) { codes.insert(code) }
                    i += 2
                }
            }
            return .success(codes.sorted())
        }
    }

    /// The VIN (mode 09 PID 02): CAN sends `49 02 01` and 17 characters in one multi-frame
    /// message; older protocols five messages `49 02 0N` of 4 bytes each (numbered 1–5,
    /// the first padded with zeros).
    public static func vin(_ r: ELMResponse) -> Result<VIN, OBDFailure> {
        messages(r, service: 0x09, pid: 0x02).flatMap { all in
            var bytes: [UInt8]
            if all.count == 1, all[0].count > 7 {
                bytes = Array(all[0].dropFirst(3))  // 49 02 and the count of data items
            } else {
                guard all.allSatisfy({ $0.count == 7 }) else { return .failure(.rejected(.wrongLength)) }
                let ordered = all.sorted { $0[2] < $1[2] }
                guard ordered.enumerated().allSatisfy({ Int($0.element[2]) == $0.offset + 1 }) else {
                    return .failure(.rejected(.frameOrder))
                }
                bytes = ordered.flatMap { $0.dropFirst(3) }
            }
            bytes.removeAll { $0 == 0 }
            switch VIN.parse(String(decoding: bytes, as: UTF8.self)) {
            case .success(let vin): return .success(vin)
            case .failure(.length): return .failure(.rejected(.vinLength))
            case .failure(.character): return .failure(.rejected(.vinCharacter))
            case .failure(.checkDigit): return .failure(.rejected(.vinCheckDigit))
            }
        }
    }

    /// The battery voltage at the adapter's pin 16 (`ATRV` → `12.6V`).
    public static func voltage(_ r: ELMResponse) -> Result<Double, OBDFailure> {
        guard case .text(let lines) = r else { return .failure(failure(r)) }
        guard lines.count == 1 else { return .failure(.rejected(.notHex)) }
        var digits = Substring(lines[0])
        if digits.hasSuffix("V") || digits.hasSuffix("v") { digits = digits.dropLast() }
        while digits.last == " " { digits = digits.dropLast() }
        guard digits.count <= 6, digits.allSatisfy({ $0.isNumber || $0 == "." }), let v = Double(digits) else {
            return .failure(.rejected(.notHex))
        }
        guard v >= 0, v <= 40 else { return .failure(.rejected(.outOfRange)) }
        return .success(v)
    }

    /// The adapter's identity from `ATZ` (`ELM327 v1.5`), if it gave one.
    public static func identity(_ r: ELMResponse) -> String? {
        guard case .text(let lines) = r else { return nil }
        return lines.first { $0.contains("ELM") || $0.contains("STN") } ?? lines.first
    }

    /// The data bytes (after service and PID) of every message answering `pid`, each exactly
    /// `length` long.
    static func data(_ r: ELMResponse, service: UInt8, pid: UInt8, length: Int) -> Result<[[UInt8]], OBDFailure> {
        messages(r, service: service, pid: pid).flatMap { all in
            guard all.allSatisfy({ $0.count == length + 2 }) else { return .failure(.rejected(.wrongLength)) }
            return .success(all.map { Array($0.dropFirst(2)) })
        }
    }

    /// The messages answering `service` (and `pid`); other ECUs' negative responses are skipped.
    static func messages(_ r: ELMResponse, service: UInt8, pid: UInt8?) -> Result<[[UInt8]], OBDFailure> {
        guard case .messages(let all) = r else { return .failure(failure(r)) }
        let answers = all.filter { $0.first == service | 0x40 }
        guard !answers.isEmpty else {
            return .failure(all.contains { $0.first == 0x7F } ? .noAnswer : .rejected(.wrongService))
        }
        guard let pid else { return .success(answers) }
        let matching = answers.filter { $0.count >= 2 && $0[1] == pid }
        guard matching.count == answers.count else { return .failure(.rejected(.wrongPID)) }
        return .success(matching)
    }

    static func failure(_ r: ELMResponse) -> OBDFailure {
        switch r {
        case .noData, .unableToConnect: .noAnswer
        case .busError(let text): .adapterError(text)
        case .stopped: .adapterError("STOPPED")
        case .unknownCommand: .adapterError("?")
        case .invalid(let why): .rejected(why)
        case .ok, .text, .messages: .rejected(.notHex)
        }
    }
}
