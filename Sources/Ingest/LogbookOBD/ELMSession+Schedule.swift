// SPDX-License-Identifier: MIT
internal import LogbookCore

// The session's phases, the engine's state and the polling schedule.
extension ELMSession {
    // MARK: - Phases

    /// `0100` went unanswered: the adapter is there, the car is not (yet).
    mutating func goSilent(_ now: MonotonicInstant, _ events: inout [OBDEvent]) {
        guard phase != .silent else { return }
        phase = .silent
        due.probe = now.advanced(bySeconds: plan.silentRetryInterval)
        due.voltage = now
        if !announcedAdapter {
            announcedAdapter = true
            events.append(.adapterReady(identity: info.identity))
        }
    }

    /// `0100` answered: discover the car once per connection, then poll.
    mutating func carAnswered(_ now: MonotonicInstant, _ events: inout [OBDEvent]) {
        if discovered {
            phase = .polling
            due.rpm = now
        } else {
            phase = .discovering
            queue.append(info.supported.contains(0x20) ? .supportedPIDs(base: 0x20) : .vehicleInfoPIDs)
        }
    }

    mutating func finishDiscovery(_ now: MonotonicInstant, _ events: inout [OBDEvent]) {
        discovered = true
        phase = .polling
        events.append(.connected(info))
        due.rpm = now
        due.voltage = now.advanced(bySeconds: plan.voltageInterval)
    }

    // MARK: - Engine

    mutating func engineTurns(_ now: MonotonicInstant, _ events: inout [OBDEvent]) {
        quietSince = nil
        quietReadings = 0
        guard engineRunning != true else { return }
        engineRunning = true
        events.append(.engine(running: true))
        readAll(.engineStart, now)
        due.rpm = now.advanced(bySeconds: plan.rpmInterval)
    }

    /// rpm zero or no answer: the engine stops once that has lasted (one zero among
    /// readings is not a stop: some cars report 0 for a moment).
    mutating func quiet(_ now: MonotonicInstant, _ events: inout [OBDEvent]) {
        quietReadings += 1
        let since = quietSince ?? now
        quietSince = since
        switch engineRunning {
        case nil:
            engineRunning = false
            events.append(.engine(running: false))
            readAll(.parked, now)
        case true?:
            guard quietReadings >= 2, now.seconds(since: since) >= plan.engineOffAfter else { return }
            engineRunning = false
            events.append(.engine(running: false))
            readAll(.engineStop, now)
            due.rpm = now.advanced(bySeconds: plan.engineOffInterval)
        case false?:
            break
        }
    }

    /// Queues voltage, fuel, odometer and both trouble-code modes, read as one batch.
    mutating func readAll(_ moment: OBDReadings.Moment, _ now: MonotonicInstant) {
        batch.moment = moment
        batchOpen = true
        queue.append(.voltage)
        if info.supported.contains(0x2F) { queue.append(.fuelLevel) }
        if info.supported.contains(0xA6) { queue.append(.odometer) }
        queue += [.storedCodes, .pendingCodes]
        let running = engineRunning == true
        due.fuel = now.advanced(bySeconds: plan.fuelInterval)
        due.odometer = now.advanced(bySeconds: plan.odometerInterval)
        due.codes = now.advanced(bySeconds: plan.troubleCodeInterval)
        due.voltage = now.advanced(bySeconds: running ? plan.voltageInterval : plan.parkedVoltageInterval)
    }

    /// Fills the queue with whatever is due.
    mutating func schedule(_ now: MonotonicInstant) {
        switch phase {
        case .initializing, .discovering:
            return
        case .silent:
            if now >= due.probe {
                queue.append(.supportedPIDs(base: 0))
                due.probe = now.advanced(bySeconds: plan.silentRetryInterval)
            }
            if now >= due.voltage {
                queue.append(.voltage)
                due.voltage = now.advanced(bySeconds: plan.parkedVoltageInterval)
            }
        case .polling:
            let running = engineRunning == true
            if now >= due.rpm {
                queue.append(.rpm)
                if running, info.supported.contains(0x0D) { queue.append(.speed) }
                due.rpm = now.advanced(bySeconds: running ? plan.rpmInterval : plan.engineOffInterval)
            }
            if running, now >= due.fuel {
                if info.supported.contains(0x2F) { queue.append(.fuelLevel) }
                due.fuel = now.advanced(bySeconds: plan.fuelInterval)
            }
            if running, now >= due.odometer {
                if info.supported.contains(0xA6) { queue.append(.odometer) }
                due.odometer = now.advanced(bySeconds: plan.odometerInterval)
            }
            if running, now >= due.codes {
                queue += [.storedCodes, .pendingCodes]
                due.codes = now.advanced(bySeconds: plan.troubleCodeInterval)
            }
            if now >= due.voltage {
                queue.append(.voltage)
                due.voltage = now.advanced(bySeconds: running ? plan.voltageInterval : plan.parkedVoltageInterval)
            }
        }
    }
}
