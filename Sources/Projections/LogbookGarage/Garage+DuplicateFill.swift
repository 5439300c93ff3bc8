// SPDX-License-Identifier: MIT
public import LogbookRecords

extension Garage {
    /// A fill-up the garage holds already with the same vehicle, odometer and litres as
    /// `fill` (a receipt typed twice, a form sent twice): the CLI and the web app refuse it
    /// unless forced (`logbook fuel add --force`, the form's "log it anyway").
    public func duplicateFill(of fill: FuelRecord) -> FuelLog? {
        // Equal to the tenth of a km and the hundredth of a litre: what a receipt shows.
        activeFills(vehicle: fill.vehicle).first {
            ($0.odometerKm * 10).rounded() == (fill.odometerKm * 10).rounded() && ($0.litres * 100).rounded() == (fill.litres * 100).rounded()
        }
    }

    /// Throws `duplicate_fill` when ``duplicateFill(of:)`` finds one.
    func checkDuplicateFill(_ fill: FuelRecord) throws(EntryProblem) {
        guard let other = duplicateFill(of: fill) else { return }
        throw EntryProblem(
            "duplicate_fill",
            "fill-up \(other.id) has the same vehicle, odometer and litres already; if this is another fill-up, force it (logbook fuel add --force, or \"Log it anyway\" in the web form)")
    }
}
