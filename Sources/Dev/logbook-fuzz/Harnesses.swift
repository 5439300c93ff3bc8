// SPDX-License-Identifier: MIT
import LogbookConfig
import LogbookControl
import LogbookCore
import LogbookJournal
import LogbookOBD
import LogbookSettings

/// One parser under fuzz: takes any bytes, must neither crash, hang nor allocate without
/// bound. A broken invariant (a round trip that does not round-trip) is a crash on purpose,
/// so libFuzzer keeps the input.
enum Harness: String, CaseIterable {
    /// A control-socket request line: framing, JSON, `cmd`, and the argument checks.
    case control
    /// `JSONValue.parse`, and a parsed value must survive serialise → parse unchanged.
    case json
    /// The config file: TOML parsing and the daemon's typed reading and checks.
    case config
    /// A journal segment: framing (at two block sizes), record decoding, chain checks.
    case segment
    /// An ELM327 adapter's replies: the reply parser and every decoder, then the whole
    /// dialogue (``ELMSession``) fed the input as its adapter's replies.
    case obd

    func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        switch self {
        case .control: Self.control(bytes)
        case .json: Self.json(bytes)
        case .config: Self.config(bytes)
        case .segment: Self.segment(bytes)
        case .obd: OBDHarness.run(bytes)
        }
    }

    /// The built-in commands plus one taking each kind of argument, one of them required.
    private static let commands: [String: ControlCommand] = {
        let every = ControlCommand(
            "fuzz.every",
            arguments: [
                .init("s", .string, required: true), .init("n", .number), .init("b", .bool), .init("o", .object),
                .init("a", .array),
            ])
        return Dictionary((ControlCommand.builtIn + [every]).map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    }()

    private static func control(_ bytes: UnsafeBufferPointer<UInt8>) {
        // The server splits at `\n`; every line is a request of its own.
        for line in Array(bytes).split(separator: 10, omittingEmptySubsequences: false) {
            switch ControlRequest.parse(line) {
            case .blank: break
            case .invalid(let error, let id): _ = ControlReply.error(error, id: id)
            case .request(let request):
                if let error = request.problem(in: commands) {
                    _ = ControlReply.error(error, id: request.id)
                } else {
                    _ = ControlReply.success(request.body, id: request.id)
                }
            }
        }
    }

    private static func json(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let value = try? JSONValue.parse(bytes) else { return }
        let text = value.serialized
        guard let again = try? JSONValue.parse(text) else {
            fatalError("serialized JSON does not parse: \(text)")
        }
        guard again == value else { fatalError("JSON round trip changed the value: \(text)") }
    }

    private static func config(_ bytes: UnsafeBufferPointer<UInt8>) {
        // The file reader refuses invalid UTF-8 before parsing; do the same.
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        _ = try? Settings.load(text: text, file: "fuzz.toml")
    }

    private static func segment(_ bytes: UnsafeBufferPointer<UInt8>) {
        let array = Array(bytes)
        _ = SegmentInspection.parseSegment(array)
        // A small block size puts block boundaries (padding, fragments) inside short inputs.
        _ = SegmentInspection.parseSegment(array, blockSize: 64)
        _ = SegmentInspection.decodesAsRecord(array)
    }
}
