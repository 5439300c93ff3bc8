// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookJournal
internal import LogbookRecords
internal import Synchronization

/// Every vehicle the logbook knows, as logbookd sees it: those the journal holds (its segment
/// headers carry them, so nothing old is read) with `[[vehicle]]` of the configuration file
/// journaled into it, and every vehicle entry appended since.
///
/// The journal is the truth; the configuration file seeds it. A `[[vehicle]]` the journal lacks
/// is added (origin `config`); a table that changed since the file last set it is journaled as
/// an amendment of the fields that changed. So the latest change wins, whether it was made in
/// the file or with `logbook vehicles edit` or the web app, and an unchanged file never undoes
/// a person's edit.
final class VehicleRegistry: Sendable {
    struct Item: Sendable {
        var record: VehicleRecord
        var fields: JSONValue
        var retired: Bool
        /// The fields as the configuration file last set them.
        var configFields: JSONValue?
    }

    private let items: Mutex<[String: Item]>

    init(carried: CarriedEntries) {
        var known: [String: Item] = [:]
        for item in carried.items(ofType: VehicleRecord.type) {
            guard let record = try? VehicleRecord(json: item.fields) else { continue }
            known[item.subject] = Item(record: record, fields: item.fields, retired: item.voided, configFields: item.configFields)
        }
        items = Mutex(known)
    }

    /// The entries that bring `configured` into the journal: an add for a vehicle it lacks,
    /// an amendment of the fields the file changed since it last set them. Nothing for a
    /// vehicle the file still describes as it did.
    func seeding(_ configured: [ConfiguredVehicle]) -> [RecordEntry] {
        items.withLock { items in
            configured.compactMap { v -> RecordEntry? in
                let fields = v.record.fields
                guard let item = items[v.id] else {
                    return v.record.entry(subject: v.id, origin: EntryOrigin.config)
                }
                let before = (try? VehicleRecord(json: item.configFields ?? .object([]))) ?? VehicleRecord()
                guard case .object(let changed) = before.changes(to: v.record), !changed.isEmpty, fields != item.configFields else { return nil }
                return RecordEntry(type: VehicleRecord.type, action: .amend, subject: v.id, fields: .object(changed), origin: EntryOrigin.config)
            }
        }
    }

    /// Folds in a vehicle entry logbookd appended.
    func apply(_ entry: RecordEntry) {
        guard entry.type == VehicleRecord.type else { return }
        items.withLock { items in
            let fromConfig = entry.origin == EntryOrigin.config
            switch (entry.action, items[entry.subject]) {
            case (.add, nil):
                guard let record = try? VehicleRecord(json: entry.fields) else { return }
                items[entry.subject] = Item(record: record, fields: entry.fields, retired: false, configFields: fromConfig ? entry.fields : nil)
            case (.add, var item?), (.amend, var item?):
                let fields = FieldReader.merged(item.fields, entry.fields)
                guard let record = try? VehicleRecord(json: fields) else { return }
                item.record = record
                item.fields = fields
                if fromConfig { item.configFields = FieldReader.merged(item.configFields ?? .object([]), entry.fields) }
                if entry.action == .add { item.retired = false }
                items[entry.subject] = item
            case (.void, var item?):
                item.retired = true
                items[entry.subject] = item
            case (.amend, nil), (.void, nil):
                return
            }
        }
    }

    /// The vehicle `id` as the live state names it, unless unknown or retired.
    func vehicle(_ id: String?) -> Vehicle? {
        guard let id else { return nil }
        return items.withLock { items in items[id].flatMap { $0.retired ? nil : $0.record.vehicle(id: id) } }
    }

    /// The vehicle in service whose VIN is `vin`.
    func vehicle(withVIN vin: String) -> String? {
        items.withLock { items in items.first { !$0.value.retired && $0.value.record.vin == vin }?.key }
    }

    /// The record of vehicle `id` (retired or not).
    func record(_ id: String) -> VehicleRecord? { items.withLock { $0[id]?.record } }

    /// Whether `id` names a vehicle, in service or retired.
    func contains(_ id: String) -> Bool { items.withLock { $0[id] != nil } }

    /// Whether `id` names a retired vehicle.
    func isRetired(_ id: String) -> Bool { items.withLock { $0[id]?.retired ?? false } }

    /// The ids of the vehicles in service.
    var activeIDs: Set<String> { items.withLock { Set($0.filter { !$0.value.retired }.keys) } }
}
