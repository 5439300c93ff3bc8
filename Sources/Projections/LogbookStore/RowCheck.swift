// SPDX-License-Identifier: MIT
internal import Foundation
internal import GRDB
internal import LogbookJournal

/// A CRC-32C over a row's values, stored in its `crc` column and checked on every read.
///
/// SQLite notices damage to its page structure, not to the values in a row: a bit flipped on
/// an SD card can turn a distance or a time into another valid number. With this check (and
/// the chunk BLOBs' own CRC) a damaged row reads as damage, and the index is rebuilt rather
/// than trusted. Values are hashed by their SQLite storage class, so the Swift types written
/// must match the columns' affinity (REAL columns get `Double`s, never `Int`s).
enum RowCheck {
    /// The values followed by their CRC, as statement arguments.
    static func checked(_ values: [DatabaseValue]) -> StatementArguments {
        StatementArguments(values + [crc(values).databaseValue])
    }

    static func crc(_ values: some Sequence<DatabaseValue>) -> Int64 {
        var c: UInt32 = 0
        func feed(_ tag: UInt8, _ bytes: UnsafeRawBufferPointer) {
            c = withUnsafeBytes(of: tag) { CRC32C.update(c, $0) }
            c = CRC32C.update(c, bytes)
        }
        for v in values {
            switch v.storage {
            case .null: feed(0, UnsafeRawBufferPointer(start: nil, count: 0))
            case .int64(let i): withUnsafeBytes(of: i.littleEndian) { feed(1, $0) }
            case .double(let d): withUnsafeBytes(of: d.bitPattern.littleEndian) { feed(2, $0) }
            case .string(let s):
                var s = s
                s.withUTF8 { feed(3, UnsafeRawBufferPointer($0)) }
            case .blob(let data): data.withUnsafeBytes { feed(4, $0) }
            }
        }
        return Int64(c)
    }

    /// Checks a row read as `SELECT <columns>, crc`: the last value is the CRC of the others.
    static func verify(_ row: Row, _ what: @autoclosure () -> String) throws {
        let values = Array(row.databaseValues)
        guard let stored = values.last, case .int64(let crc) = stored.storage, crc == Self.crc(values.dropLast()) else {
            throw TripIndexError.damaged("\(what()) fails its check")
        }
    }
}
