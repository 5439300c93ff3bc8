// SPDX-License-Identifier: MIT
package import LogbookCore
package import LogbookRecords

extension UserEntry {
    /// The journal record of a validated garage entry (the CLI's direct path builds the same).
    package init(_ entry: RecordEntry, recordedAt: GPSTime) {
        let action: UserEntry.Action =
            switch entry.action {
            case .add: .add
            case .amend: .amend
            case .void: .void
            }
        self.init(
            type: entry.type, action: action, subject: entry.subject, fields: entry.fields, recordedAt: recordedAt.nanoseconds,
            origin: entry.origin)
    }
}
