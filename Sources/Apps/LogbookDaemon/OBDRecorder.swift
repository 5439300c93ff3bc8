// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookJournal
internal import LogbookOBD
internal import LogbookRecords
internal import LogbookSettings
internal import Logging

/// What the pipeline knows besides an OBD source's events when it hands them over.
struct OBDContext {
    var now: MonotonicInstant
    var wallClock: GPSTime
    /// The latest fix's time and position (nil inside a privacy zone).
    var gpsTime: GPSTime?
    var latitude: Double?
    var longitude: Double?
}

/// The OBD sources' side of the pipeline: the engine turning on and off becomes an `obd:NAME`
/// signal for the trip engine, the VIN picks the vehicle, and readings, fault codes and the
/// battery are journaled (``OBDRecorder`` + Entries), run hooks and fill the live `obd` blocks.
struct OBDRecorder {
    var states: [String: OBDSourceState] = [:]
    var order: [String] = []
    private(set) var configuration: Settings
    /// Vehicles by VIN; a car whose VIN none has is added to it (origin `obd`).
    let vehicles: VehicleRegistry
    let journal: JournalWriter
    let logger: Logger
    /// The open trip as last seen (``sync(_:_:)`` notices starts and ends).
    private var openTrip: (id: TripID, vehicle: String?)?

    init(configuration: Settings, vehicles: VehicleRegistry, journal: JournalWriter, logger: Logger) {
        self.configuration = configuration
        self.vehicles = vehicles
        self.journal = journal
        self.logger = logger
        reconfigure(configuration)
    }

    /// A reload: sources added or removed, vehicles' VINs changed. Kept sources keep their state.
    mutating func reconfigure(_ c: Settings) {
        configuration = c
        let sources = c.sources.filter { $0.kind == .obd }
        var next: [String: OBDSourceState] = [:]
        for s in sources {
            var state = states[s.name] ?? OBDSourceState(source: s)
            state.source = s
            state.block.batteryFloorVolts = s.lowBatteryVolts
            next[s.name] = state
        }
        states = next
        order = sources.map(\.name)
        for name in order {
            guard var state = states[name] else { continue }
            state.block.vehicle = vehicle(of: state)
            states[name] = state
        }
    }

    /// The live `obd` blocks, in configuration order.
    var blocks: [LiveState.OBDBlock] { order.compactMap { states[$0]?.block } }

    /// Whether ``sync(_:_:)`` has a trip start or end to catch up with.
    func needsSync(_ recorder: TripRecorder) -> Bool { !states.isEmpty && recorder.current?.id != openTrip?.id }

    /// Handles what source `name` reported.
    mutating func handle(_ name: String, _ events: [OBDEvent], _ recorder: inout TripRecorder, _ context: OBDContext) {
        guard var state = states[name] else { return }
        for event in events {
            switch event {
            case .linkUp:
                state.block.connected = true
            case .adapterReady(let identity):
                state.block.adapter = identity ?? state.block.adapter
                state.block.carAnswers = false
            case .connected(let info):
                carConnected(&state, info, context)
            case .engine(let running):
                state.block.engineRunning = running
                if !running {
                    state.fuelAtStop = state.block.fuelPercent ?? state.fuelAtStop
                    state.block.speed = nil
                }
                setSignal(&state, on: running, &recorder, context)
            case .rpm(let rpm):
                state.block.rpm = rpm
            case .speed(let kmh):
                state.block.speed = kmh / 3.6
            case .readings(let r):
                apply(r, &state, &recorder, context)
            case .counters(let c):
                state.block.rejected = c.rejected
                state.block.timeouts = c.timeouts
                state.block.connections = c.connections
            case .adapterLost(let reason):
                state.block.connected = false
                state.block.carAnswers = false
                state.block.engineRunning = nil
                state.block.rpm = nil
                state.block.speed = nil
                if state.signalOn { logger.info("OBD adapter stopped answering: the engine counts as off", metadata: ["source": "\(name)", "reason": "\(reason)"]) }
                setSignal(&state, on: false, &recorder, context)
            }
        }
        states[name] = state
    }

    private mutating func carConnected(_ state: inout OBDSourceState, _ info: OBDVehicleInfo, _ context: OBDContext) {
        let name = state.source.name
        state.block.adapter = info.identity ?? state.block.adapter
        state.block.carAnswers = true
        state.vin = info.vin
        state.block.vin = info.vin?.text
        state.block.manufacturer = info.vin?.manufacturer
        state.block.modelYear = info.vin?.modelYear(currentYear: Self.year(of: context.wallClock))
        state.block.vinKnown = info.vin.map { vehicles.vehicle(withVIN: $0.text) != nil }
        let used: [(UInt8, String)] = [(0x0C, "010C"), (0x0D, "010D"), (0x2F, "012F"), (0xA6, "01A6")]
        state.block.pids = used.filter { info.supported.contains($0.0) }.map(\.1)
        state.block.vehicle = vehicle(of: state)
        var meta: Logger.Metadata = ["source": "\(name)", "vin": "\(info.vin?.text ?? "-")", "vehicle": "\(state.block.vehicle ?? "-")"]
        if let problem = info.vinProblem { meta["vin_refused"] = "\(problem.rawValue)" }
        if let vin = info.vin, state.block.vinKnown == false {
            meta["make"] = "\(vin.manufacturer ?? "?")"
            meta["model_year"] = "\(state.block.modelYear.map(String.init) ?? "?")"
            logger.notice("OBD: a car with a VIN no vehicle had; added it as vehicle \(state.block.vehicle ?? "?")", metadata: meta)
        } else {
            logger.info("OBD: the car answers", metadata: meta)
        }
    }

    /// The vehicle a source's car is: the vehicle with its VIN, else a new one for it, else
    /// the source's own.
    private func vehicle(of state: OBDSourceState) -> String? {
        if let vin = state.vin {
            if let id = vehicles.vehicle(withVIN: vin.text) { return id }
            if let id = vehicleForUnknownVIN(vin, modelYear: state.block.modelYear) { return id }
        }
        return state.source.vehicle
    }

    /// A car whose VIN no vehicle has: it joins the registry as a vehicle of its own (origin
    /// `obd`), named by its maker and the VIN's last six characters, with the model year the
    /// VIN implies; the person renames it with `logbook vehicles edit`.
    private func vehicleForUnknownVIN(_ vin: VIN, modelYear: Int?) -> String? {
        let maker = vin.manufacturer ?? "Vehicle"
        let slug = String(maker.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) }.prefix(16))
        let id = (slug.isEmpty ? "car" : slug) + "-" + vin.text.suffix(6).lowercased()
        guard !vehicles.contains(id) else { return id }
        let record = VehicleRecord(name: "\(maker) \(vin.text.suffix(6))", make: vin.manufacturer, year: modelYear, vin: vin.text)
        let entry = record.entry(subject: id, origin: EntryOrigin.obd)
        do {
            _ = try journal.append(.entry(UserEntry(entry, recordedAt: wallClockNow())))
            vehicles.apply(entry)
            return id
        } catch {
            logger.error("OBD: the new vehicle was not journaled", metadata: ["vin": "\(vin.text)", "error": "\(error)"])
            return nil
        }
    }

    private mutating func setSignal(_ state: inout OBDSourceState, on: Bool, _ recorder: inout TripRecorder, _ context: OBDContext) {
        guard state.signalOn != on else { return }
        state.signalOn = on
        let signal = VehicleSignal(kind: .obd, name: state.source.name, vehicle: state.block.vehicle, isOn: on)
        recorder.handle(.signal(signal), at: context.now)
        states[state.source.name] = state
        sync(&recorder, context)
        state = states[state.source.name] ?? state
    }

    /// Notices a trip start or end (by any source) and journals the OBD values that go with it.
    mutating func sync(_ recorder: inout TripRecorder, _ context: OBDContext) {
        let current = recorder.current
        guard current?.id != openTrip?.id else { return }
        if let ended = openTrip {
            for name in order where states[name]?.trip == ended.id {
                journalSnapshot(name, start: false, trip: ended.id, &recorder, context)
                states[name]?.trip = nil
                states[name]?.startPending = false
            }
        }
        openTrip = current.map { ($0.id, $0.vehicle) }
        guard let started = openTrip else { return }
        for name in order {
            guard let s = states[name], s.block.connected else { continue }
            let v = s.block.vehicle
            guard v == nil || started.vehicle == nil || v == started.vehicle else { continue }
            states[name]?.trip = started.id
            states[name]?.startPending = true
        }
    }

    static func year(of time: GPSTime) -> Int { Int(ISO8601.format(time).prefix(4)) ?? 2026 }
}

/// One OBD source's state between events.
struct OBDSourceState {
    var source: SourceConfiguration
    var block: LiveState.OBDBlock
    var vin: VIN?
    var signalOn = false
    /// Codes as last read; nil before the first read (then every code is new).
    var stored: Set<TroubleCode>?
    var pending: Set<TroubleCode>?
    /// The fuel level when the engine last stopped (a fill-up is measured from it).
    var fuelAtStop: Double?
    /// The latest odometer reading and when it was taken; the one journaled at the trip start.
    var odometer: (km: Double, at: GPSTime)?
    var startOdometerAt: GPSTime?
    /// The open trip this car is part of, and whether its start values are still to journal.
    var trip: TripID?
    var startPending = false

    init(source: SourceConfiguration) {
        self.source = source
        block = LiveState.OBDBlock(source: source.name, vehicle: source.vehicle, batteryFloorVolts: source.lowBatteryVolts)
    }
}
