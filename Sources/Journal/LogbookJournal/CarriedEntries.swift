// SPDX-License-Identifier: MIT
public import LogbookCore
internal import LogbookRecords

/// Vehicles and named places as their entries left them, carried in every segment header.
///
/// The writer reads only the active segment when it opens (recovery is O(active segment)), yet
/// logbookd must know every vehicle — added with the CLI, the web app or from the config file
/// years ago — and every named place. So each new segment's header carries their current
/// fields, as it carries the open trips; the writer folds the entries it appends.
public struct CarriedEntries: Sendable, Hashable {
    /// The entry types carried.
    public static let types: Set<String> = [VehicleRecord.type, PlaceRecord.type]

    /// One subject's fields (amendments merged) and whether it was withdrawn (a retired
    /// vehicle, a removed place).
    public struct Item: Sendable, Hashable {
        public var type: String
        public var subject: String
        public var fields: JSONValue
        public var voided: Bool
        /// The fields as entries of origin `config` last set them: what logbookd compares the
        /// configuration file with, so that a changed `[[vehicle]]` table is journaled and an
        /// unchanged one never undoes a person's edit.
        public var configFields: JSONValue?
    }

    private var items: [String: Item] = [:]

    public init() {}

    /// The carried items of `type`, by subject.
    public func items(ofType type: String) -> [Item] {
        items.values.filter { $0.type == type }.sorted { $0.subject < $1.subject }
    }

    /// Every item, in a stable order (for the header).
    var all: [Item] { items.values.sorted { ($0.type, $0.subject) < ($1.type, $1.subject) } }

    /// Folds an appended entry in (others than ``types`` are ignored).
    public mutating func apply(_ e: UserEntry) {
        guard Self.types.contains(e.type) else { return }
        let key = e.type + "\u{0}" + e.subject
        let fromConfig = e.origin == EntryOrigin.config
        switch (e.action, items[key]) {
        case (.add, nil):
            items[key] = Item(type: e.type, subject: e.subject, fields: e.fields, voided: false, configFields: fromConfig ? e.fields : nil)
        case (.add, var item?), (.amend, var item?):
            item.fields = FieldReader.merged(item.fields, e.fields)
            if fromConfig { item.configFields = FieldReader.merged(item.configFields ?? .object([]), e.fields) }
            if e.action == .add { item.voided = false }
            items[key] = item
        case (.void, var item?):
            item.voided = true
            items[key] = item
        case (.amend, nil), (.void, nil):
            break
        }
    }

    /// Restores an item read from a header.
    mutating func insert(_ item: Item) { items[item.type + "\u{0}" + item.subject] = item }
}
