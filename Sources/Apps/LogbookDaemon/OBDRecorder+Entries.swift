// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookJournal
internal import LogbookOBD
internal import LogbookRecords
internal import LogbookSettings
internal import Logging

/// What OBD readings put in the journal:
/// - at a trip's start and end, `obd.snapshot` (battery, fuel level, odometer) and an
///   `odometer` reading in the shape `logbook odometer add` writes (origin `obd`);
/// - a fuel level risen by ≥ 15 % of the tank across a stop: a `fuel.pending` fill-up;
/// - a trouble code appearing or cleared: a signal record `dtc:CODE` / `dtc-pending:CODE`;
/// - the battery below the floor while parked: a signal record `battery-low:NAME`.
extension OBDRecorder {
    /// The least rise of the fuel level (percent of the tank) across a stop that is a fill-up.
    static let fillUpRise = 15.0
    /// A low battery clears this far above the floor (volts), so it does not flap.
    static let batteryHysteresis = 0.2

    mutating func apply(_ r: OBDReadings, _ state: inout OBDSourceState, _ recorder: inout TripRecorder, _ context: OBDContext) {
        if let v = r.voltage {
            state.block.batteryVolts = v
            checkBattery(v, &state, &recorder, context)
        }
        if let f = r.fuelPercent {
            checkFillUp(f, r.moment, &state, &recorder, context)
            state.block.fuelPercent = f
        }
        if let km = r.odometerKm { state.odometer = (km, context.wallClock) }
        state.block.odometerKm = state.odometer?.km
        if let codes = r.storedCodes { compare(codes, pending: false, &state, &recorder, context) }
        if let codes = r.pendingCodes { compare(codes, pending: true, &state, &recorder, context) }
        if r.storedCodes != nil || r.pendingCodes != nil {
            let all = (state.stored ?? []).map { ($0, false) } + (state.pending ?? []).map { ($0, true) }
            state.block.faultCodes = all.sorted { ($0.1 ? 1 : 0, $0.0) < ($1.1 ? 1 : 0, $1.0) }.map {
                LiveState.FaultCode(code: $0.0.description, pending: $0.1, description: $0.0.genericDescription)
            }
        }
        if state.startPending, let trip = state.trip {
            states[state.source.name] = state
            journalSnapshot(state.source.name, start: true, trip: trip, &recorder, context)
            state = states[state.source.name] ?? state
            state.startPending = false
        }
    }

    /// `obd.snapshot` for a trip's start or end, and the odometer reading with it.
    mutating func journalSnapshot(_ name: String, start: Bool, trip: TripID, _ recorder: inout TripRecorder, _ context: OBDContext) {
        guard var state = states[name] else { return }
        let b = state.block
        var fields: [(String, JSONValue)] = [
            ("trip", .number(Double(trip.rawValue))), ("moment", .string(start ? "trip_start" : "trip_end")),
            ("vehicle", .string(b.vehicle)), ("at", .string(ISO8601.format(context.wallClock))), ("source", .string(name)),
        ]
        if let vin = b.vin { fields.append(("vin", .string(vin))) }
        if let v = b.batteryVolts { fields.append(("battery_v", .number(v))) }
        if let f = b.fuelPercent { fields.append(("fuel_percent", .number((f * 10).rounded() / 10))) }
        if let o = state.odometer { fields.append(("odometer_km", .number(o.km))) }
        recorder.append(.entry(UserEntry(
            type: "obd.snapshot", action: .add, subject: "\(trip)/\(start ? "start" : "end")", fields: .object(fields),
            recordedAt: context.wallClock.nanoseconds, origin: "obd")))
        if let vehicle = b.vehicle, let o = state.odometer {
            let at = GPSTime(seconds: o.at.wholeSeconds)
            if start || state.startOdometerAt != at {
                let text = ISO8601.format(at)
                let compact = String(text.unicodeScalars.filter { $0 != "-" && $0 != ":" }.map(Character.init))
                recorder.append(.entry(UserEntry(
                    type: "odometer", action: .add, subject: "\(vehicle)@\(compact)",
                    fields: .object([("vehicle", .string(vehicle)), ("at", .string(text)), ("odometer_km", .number(o.km)), ("source", .string("obd"))]),
                    recordedAt: context.wallClock.nanoseconds, origin: "obd")))
                if start { state.startOdometerAt = at }
            }
        }
        states[name] = state
    }

    /// A fill-up: the level risen by ``fillUpRise`` since the engine stopped, read while
    /// parked or right at the next start (never while driving: a sloshing tank is no fill-up).
    private mutating func checkFillUp(
        _ level: Double, _ moment: OBDReadings.Moment, _ state: inout OBDSourceState, _ recorder: inout TripRecorder, _ context: OBDContext
    ) {
        if moment == .engineStop || (moment == .parked && state.fuelAtStop == nil) {
            state.fuelAtStop = level
            return
        }
        if moment == .periodic, state.block.engineRunning == true {
            state.fuelAtStop = nil
            return
        }
        guard let before = state.fuelAtStop else { return }
        if level - before >= Self.fillUpRise {
            let vehicle = state.block.vehicle
            let at = GPSTime(seconds: context.wallClock.wholeSeconds)
            let tank = vehicle.flatMap { vehicles.record($0)?.tankLitres }
            let position = context.latitude.flatMap { lat in context.longitude.map { (lat, $0) } }
            let record = PendingFillRecord(
                vehicle: vehicle, at: at, litresEstimated: tank.map { (($0 * (level - before) / 100) * 10).rounded() / 10 },
                latitude: position?.0, longitude: position?.1, levelBefore: (before * 10).rounded() / 10,
                levelAfter: (level * 10).rounded() / 10, source: state.source.name)
            recorder.append(.entry(UserEntry(
                record.entry(subject: FuelRecord.subject(vehicle: vehicle ?? state.source.name, at: at), origin: "obd"),
                recordedAt: context.wallClock)))
            logger.notice("OBD: a fill-up, waiting for its price", metadata: [
                "source": "\(state.source.name)", "vehicle": "\(vehicle ?? "-")", "level_before": "\(Int(before))", "level_after": "\(Int(level))",
            ])
            state.fuelAtStop = level
        } else if moment == .engineStart {
            state.fuelAtStop = nil
        }
    }

    private mutating func compare(
        _ codes: [TroubleCode], pending: Bool, _ state: inout OBDSourceState, _ recorder: inout TripRecorder, _ context: OBDContext
    ) {
        let now = Set(codes)
        let before = (pending ? state.pending : state.stored) ?? []
        for (code, appeared) in now.subtracting(before).sorted().map({ ($0, true) }) + before.subtracting(now).sorted().map({ ($0, false) }) {
            let b = state.block
            recorder.append(.signal(SignalEvent(
                source: FaultCodeSignal(code: code, pending: pending).source, vehicleID: b.vehicle, on: appeared, gpsTime: context.gpsTime,
                monotonicNanoseconds: context.now.nanoseconds)))
            let description = code.genericDescription
            logger.notice(appeared ? "OBD: fault code set" : "OBD: fault code cleared", metadata: [
                "source": "\(state.source.name)", "code": "\(code)", "pending": "\(pending)", "description": "\(description ?? "-")",
                "vehicle": "\(b.vehicle ?? "-")",
            ])
            recorder.hooks?.run(event: "fault_code", environment: hookEnvironment(state, [
                "LOGBOOK_FAULT_CODE": code.description, "LOGBOOK_FAULT_STATE": appeared ? "new" : "cleared",
                "LOGBOOK_FAULT_PENDING": pending ? "1" : "0", "LOGBOOK_FAULT_DESCRIPTION": description ?? "",
            ]))
        }
        if pending { state.pending = now } else { state.stored = now }
    }

    private mutating func checkBattery(_ volts: Double, _ state: inout OBDSourceState, _ recorder: inout TripRecorder, _ context: OBDContext) {
        let parked = state.block.engineRunning != true
        let floor = state.source.lowBatteryVolts
        let low: Bool
        if !state.block.batteryLow {
            guard parked, volts < floor else { return }
            low = true
        } else {
            guard !parked || volts >= floor + Self.batteryHysteresis else { return }
            low = false
        }
        state.block.batteryLow = low
        recorder.append(.signal(SignalEvent(
            source: "battery-low:\(state.source.name)", vehicleID: state.block.vehicle, on: low, gpsTime: context.gpsTime,
            monotonicNanoseconds: context.now.nanoseconds)))
        guard low else { return logger.info("OBD: battery voltage back up", metadata: ["source": "\(state.source.name)", "volts": "\(volts)"]) }
        logger.warning("OBD: battery low while parked", metadata: ["source": "\(state.source.name)", "volts": "\(volts)", "floor": "\(floor)"])
        recorder.hooks?.run(event: "low_battery", environment: hookEnvironment(state, [
            "LOGBOOK_BATTERY_V": String(volts), "LOGBOOK_BATTERY_FLOOR_V": String(floor),
        ]))
    }

    private func hookEnvironment(_ state: OBDSourceState, _ extra: [String: String]) -> [String: String] {
        var env = extra
        env["LOGBOOK_OBD_SOURCE"] = state.source.name
        env["LOGBOOK_VEHICLE"] = state.block.vehicle ?? ""
        env["LOGBOOK_VEHICLE_NAME"] = vehicles.vehicle(state.block.vehicle)?.name ?? state.block.vehicle ?? ""
        env["LOGBOOK_VIN"] = state.block.vin ?? ""
        return env
    }
}
