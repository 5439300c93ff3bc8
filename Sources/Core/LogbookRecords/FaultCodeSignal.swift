// SPDX-License-Identifier: MIT
/// A trouble code's signal record, as the OBD recorder journals it and every reader reads it:
/// source `dtc:P0420` for a stored code (mode 03), `dtc-pending:P0420` for a pending one
/// (mode 07); on when the code appeared, off when it was cleared.
public struct FaultCodeSignal: Sendable, Hashable, Comparable {
    public var code: TroubleCode
    /// A pending code (mode 07): seen once, not confirmed, the warning lamp not (yet) on.
    public var pending: Bool

    public init(code: TroubleCode, pending: Bool) {
        self.code = code
        self.pending = pending
    }

    /// Reads a signal's source; nil when it is not a fault code's.
    public init?(source: String) {
        let pendingPrefix = "dtc-pending:", storedPrefix = "dtc:"
        if source.hasPrefix(pendingPrefix), let code = TroubleCode(String(source.dropFirst(pendingPrefix.count))) {
            self.init(code: code, pending: true)
        } else if source.hasPrefix(storedPrefix), let code = TroubleCode(String(source.dropFirst(storedPrefix.count))) {
            self.init(code: code, pending: false)
        } else {
            return nil
        }
    }

    /// The signal's source: `dtc:P0420` or `dtc-pending:P0420`.
    public var source: String { (pending ? "dtc-pending:" : "dtc:") + code.description }

    /// The SAE J2012 generic description when the code is generic and in the table.
    public var genericDescription: String? { code.genericDescription }

    /// Stored codes before pending ones, then by code.
    public static func < (a: FaultCodeSignal, b: FaultCodeSignal) -> Bool {
        (a.pending ? 1 : 0, a.code) < (b.pending ? 1 : 0, b.code)
    }
}
