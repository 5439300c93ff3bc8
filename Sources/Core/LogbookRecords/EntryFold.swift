// SPDX-License-Identifier: MIT
public import LogbookCore

/// One thing entered (a vehicle, a fill-up, a reading, a task, a place) with its amendments
/// applied, as of the last entry folded in.
public struct Folded<Record: EntryRecord>: Sendable, Hashable {
    /// The entries' subject.
    public var id: String
    public var record: Record
    /// The stored fields, amendments merged in (what ``record`` was decoded from).
    public var fields: JSONValue
    /// Retired, removed or voided.
    public var voided: Bool
    /// Every entry about it, oldest first: more than one means it was changed.
    public var history: [RecordedEntry]

    /// Who made it (the first entry's origin).
    public var origin: String? { history.first?.entry.origin }
    /// When it was last changed.
    public var changedAt: GPSTime? { history.last?.recordedAt }
}

/// Folds the entries of one record type in journal order: an `add` creates (or re-activates
/// and updates what exists), an `amend` changes the fields it carries, a `void` withdraws it.
/// The history stays: nothing is forgotten, an entry that cannot apply is kept in ``ignored``.
public struct EntryFold<Record: EntryRecord>: Sendable {
    /// In the order they were first added.
    public private(set) var items: [Folded<Record>] = []
    /// Entries that could not be applied (an amendment of nothing, fields that do not decode).
    public private(set) var ignored: [RecordedEntry] = []
    private var positions: [String: Int] = [:]

    public init() {}

    /// Folds in `entries` of this record type, in journal order (others are skipped).
    public init(_ entries: some Sequence<RecordedEntry>) {
        for e in entries { apply(e) }
    }

    /// The item with `id`, voided or not.
    public subscript(id: String) -> Folded<Record>? { positions[id].map { items[$0] } }

    /// Where `id` stands in ``items`` (first-added order), voided or not.
    public func position(of id: String) -> Int? { positions[id] }

    /// The items not voided.
    public var active: [Folded<Record>] { items.filter { !$0.voided } }

    /// Folds one entry in (entries of other types are skipped).
    public mutating func apply(_ recorded: RecordedEntry) {
        let e = recorded.entry
        guard e.type == Record.type else { return }
        let index = positions[e.subject]
        switch (e.action, index) {
        case (.add, nil):
            guard let record = try? Record(json: e.fields) else { return ignored.append(recorded) }
            positions[e.subject] = items.count
            items.append(Folded(id: e.subject, record: record, fields: e.fields, voided: false, history: [recorded]))
        case (.add, let i?), (.amend, let i?):
            let fields = FieldReader.merged(items[i].fields, e.fields)
            guard let record = try? Record(json: fields) else { return ignored.append(recorded) }
            items[i].record = record
            items[i].fields = fields
            if e.action == .add { items[i].voided = false }
            items[i].history.append(recorded)
        case (.void, let i?):
            items[i].voided = true
            items[i].history.append(recorded)
        case (.amend, nil), (.void, nil):
            ignored.append(recorded)
        }
    }

    /// Adds an item that no entry describes (a vehicle only in the configuration file).
    public mutating func seed(id: String, record: Record) {
        guard positions[id] == nil else { return }
        positions[id] = items.count
        items.append(Folded(id: id, record: record, fields: record.fields, voided: false, history: []))
    }
}
