// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookJournal
internal import LogbookRecords
internal import Synchronization

/// The named places (`place` entries) as logbookd knows them: those the journal carried when it
/// opened, and every place entry appended since (`logbook places add|edit|remove` reach the
/// journal only through the daemon's control socket, so it sees every change as it happens).
///
/// The pipeline compares ``version`` at each fix and re-reads the places only when it moved, so
/// a place added, moved or removed takes effect at the next fix, without a restart.
final class PlaceRegistry: Sendable {
    private let carried: Mutex<CarriedEntries>
    private let changes = Atomic<UInt64>(0)

    init(carried: CarriedEntries) { self.carried = Mutex(carried) }

    /// Folds in an entry logbookd appended (other types are ignored).
    func apply(_ entry: UserEntry) {
        guard entry.type == PlaceRecord.type else { return }
        carried.withLock { $0.apply(entry) }
        changes.add(1, ordering: .releasing)
    }

    /// Increases with every place entry applied.
    var version: UInt64 { changes.load(ordering: .acquiring) }

    /// The places not removed, by id.
    var places: [TrackedPlace] {
        carried.withLock { c in
            c.items(ofType: PlaceRecord.type).compactMap { item -> TrackedPlace? in
                guard !item.voided, let r = try? PlaceRecord(json: item.fields) else { return nil }
                let circle = GeoCircle(name: item.subject, latitude: r.latitude, longitude: r.longitude, radius: r.radius)
                return TrackedPlace(id: item.subject, name: r.name, circle: circle)
            }
        }
    }
}
