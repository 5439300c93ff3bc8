// SPDX-License-Identifier: MIT
/// Where an export's bytes go: a file descriptor in the CLI, a response body in the web app,
/// memory in tests. Writers hand it chunks of about ``ExportOutput/chunkSize`` bytes, so an
/// export of any size needs only one chunk of memory.
public protocol ByteSink: AnyObject {
    /// Takes `bytes` in full (or throws).
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// A sink that keeps everything in memory (tests, small documents such as a picture).
public final class MemorySink: ByteSink {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty sink.
    public init() {}

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }

    /// The bytes as UTF-8 text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
