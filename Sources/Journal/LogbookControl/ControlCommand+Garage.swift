// SPDX-License-Identifier: MIT
import LogbookRecords

extension ControlCommand {
    /// The garage's write commands (`vehicle.add`, `fuel.add`, `trip.classify`…), their
    /// arguments taken from ``EntryCommand``'s field table so socket and validator agree.
    package static let garage: [ControlCommand] = EntryCommand.all.map { command in
        ControlCommand(command.name, arguments: command.requestFields.map { field in
            var kind: Kind = field.kind.isNumber ? .number : field.kind.isBool ? .bool : .string
            if case .trip = field.kind { kind = .tripNumber }
            return Argument(field.name, kind, required: field.required)
        })
    }
}
