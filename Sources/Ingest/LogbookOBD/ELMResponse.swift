// SPDX-License-Identifier: MIT
import LogbookRecords
/// What an ELM327 said in reply to one command: the bytes before its `>` prompt, parsed.
public enum ELMResponse: Sendable, Hashable {
    /// OBD data: one message per reply line or ISO-TP message (multi-frame replies joined),
    /// each starting with its service byte (`41 0C 14 5F`).
    case messages([[UInt8]])
    /// An AT command's text lines (`ELM327 v1.5`, `12.6V`).
    case text([String])
    /// `OK`.
    case ok
    /// `NO DATA`: the bus is up but no ECU answered (ignition off, PID not supported).
    case noData
    /// `UNABLE TO CONNECT`: no OBD protocol found (ignition off, no car).
    case unableToConnect
    /// `CAN ERROR`, `BUS INIT: …ERROR`, `BUS BUSY`, `BUS ERROR`, `DATA ERROR`, `FB ERROR`,
    /// `BUFFER FULL`, `<RX ERROR`, `ERRnn`…: the adapter's own line, kept for the log.
    case busError(String)
    /// `STOPPED`: the adapter cut its search short (a character arrived meanwhile).
    case stopped
    /// `?`: the adapter does not know the command.
    case unknownCommand
    /// Not a reply: refused and counted, never decoded.
    case invalid(ELMRejection)
}

/// Why a reply (or a decoded value) was refused.
public enum ELMRejection: String, Sendable, Hashable, CaseIterable {
    /// More than ``ELMResponseParser/maximumReplyBytes`` before the prompt (a babbling adapter).
    case tooLong = "too long"
    /// A byte that is not printable ASCII.
    case notText = "not text"
    /// Nothing but the prompt.
    case empty
    /// A data line that is not hex, an ISO-TP frame or a length.
    case notHex = "not hex"
    /// A numbered frame without the length line that opens a multi-frame reply.
    case frameWithoutLength = "frame without length"
    /// Frames out of order (one missing in the middle, or repeated).
    case frameOrder = "frame order"
    /// Fewer bytes than the multi-frame reply's length (the last frames missing).
    case missingFrame = "missing frame"
    /// No message with the service byte the request expects (e.g. `61` where `41` is due).
    case wrongService = "wrong service byte"
    /// The right service but another PID.
    case wrongPID = "wrong pid"
    /// The right PID with too few or too many data bytes.
    case wrongLength = "wrong length"
    /// A trouble-code reply whose count byte does not match its codes.
    case badCount = "bad count"
    /// A value outside what the quantity can be (a voltage of 80 V).
    case outOfRange = "out of range"
    /// A VIN that is not 17 characters.
    case vinLength = "vin length"
    /// A VIN with a character that no VIN has.
    case vinCharacter = "vin character"
    /// A North American VIN whose check digit does not match.
    case vinCheckDigit = "vin check digit"
}
