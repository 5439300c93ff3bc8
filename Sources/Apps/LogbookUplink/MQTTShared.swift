// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookRecords
import Synchronization

/// What the MQTT sink and the live publisher share: the vehicle ledger (updated when a batch
/// is acknowledged) and the view made from it.
public final class MQTTShared: Sendable {
    struct State {
        var ledger = VehicleLedger()
        var view: LedgerView
        var version = 0
    }
    private let state: Mutex<State>
    /// `[[vehicle]]` of the configuration file (the journal's registry wins).
    public let configured: [ConfiguredVehicle]
    /// The wall clock (a test sets its own).
    let clock: @Sendable () -> GPSTime

    public init(configured: [ConfiguredVehicle] = [], clock: @escaping @Sendable () -> GPSTime = { GPSTime(nanoseconds: UplinkClock.wallNanoseconds()) }) {
        self.configured = configured
        self.clock = clock
        state = Mutex(State(view: LedgerView(ledger: VehicleLedger(), configured: configured, now: clock())))
    }

    /// The ledger and a version that changes with it.
    public var ledger: (VehicleLedger, Int) { state.withLock { ($0.ledger, $0.version) } }

    /// The view of the current ledger and its version.
    public var view: (LedgerView, Int) { state.withLock { ($0.view, $0.version) } }

    /// Replaces the ledger (the sink calls it when a batch changed it) and works out its view.
    func replace(_ ledger: VehicleLedger) {
        let view = LedgerView(ledger: ledger, configured: configured, now: clock())
        state.withLock { s in
            s.ledger = ledger
            s.view = view
            s.version += 1
        }
    }

    /// Works the view out again for the time that passed (service states fall due by date).
    func refresh() {
        let ledger = state.withLock { $0.ledger }
        let view = LedgerView(ledger: ledger, configured: configured, now: clock())
        state.withLock { s in
            guard s.ledger == ledger, s.view != view else { return }
            s.view = view
            s.version += 1
        }
    }
}
