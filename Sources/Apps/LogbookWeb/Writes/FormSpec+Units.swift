// SPDX-License-Identifier: MIT
internal import LogbookCore

extension FormSpec {
    /// This form as `units` has it: distances typed and shown in miles and volumes in US
    /// gallons with `imperial` (labels say so), turned into the journal's km and litres by
    /// ``UnitSystem/journalFields(_:)`` as the input is read.
    func `in`(_ units: UnitSystem) -> FormSpec {
        guard units == .imperial else { return self }
        var spec = self
        for i in spec.inputs.indices {
            spec.inputs[i].units = units
            let name = spec.inputs[i].name
            if UnitSystem.distanceKeys.contains(name) {
                spec.inputs[i].label = spec.inputs[i].label.replacing("km", with: "miles")
            } else if UnitSystem.volumeKeys.contains(name) {
                spec.inputs[i].label = spec.inputs[i].label.replacing("Litres", with: "US gallons").replacing("(L)", with: "(US gallons)")
                    .replacing("litres", with: "US gallons")
            }
        }
        return spec
    }
}
