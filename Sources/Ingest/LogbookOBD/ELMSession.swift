// SPDX-License-Identifier: MIT
public import LogbookCore
internal import LogbookRecords

/// What one exchange with the adapter came to.
public enum ELMExchange: Sendable, Hashable {
    /// The bytes before the `>` prompt.
    case reply([UInt8])
    /// No prompt within the request's timeout.
    case timedOut
    /// More than ``ELMResponseParser/maximumReplyBytes`` without a prompt.
    case overflow
}

/// The ELM327 dialogue as a pure state machine: it says which command to send next and turns
/// each reply into events; the transport (``OBDSource``) does the I/O and keeps the time.
///
/// Order: reset and set-up (`ATZ ATE0 ATL0 ATS0 ATH0 ATSP0`), then `0100`. A car that does
/// not answer leaves the session *silent*: `0100` again every few seconds, `ATRV` now and
/// then. Once it answers: the supported-PID chain (`0120`… as far as each bitmap allows),
/// `0900`, the VIN (`0902`), then polling: rpm every second (every 5 s with the engine off),
/// speed after it, fuel, odometer and trouble codes now and then, and all of them together
/// with the voltage right after the engine starts or stops. PIDs the car does not list as
/// supported are never asked. One session lives as long as one connection.
public struct ELMSession: Sendable {
    public let plan: OBDPollingPlan
    enum Phase { case initializing, silent, discovering, polling }
    var phase = Phase.initializing
    var queue: [OBDRequest] = [
        .reset, .echoOff, .linefeedsOff, .spacesOff, .headersOff, .automaticProtocol, .supportedPIDs(base: 0),
    ]
    /// The request awaiting its reply.
    public private(set) var inFlight: OBDRequest?
    var info = OBDVehicleInfo()
    var vehicleInfoPIDs = SupportedPIDs()
    var discovered = false
    var announcedAdapter = false
    /// Whether the engine runs, once the first rpm reading has told.
    public internal(set) var engineRunning: Bool?
    var quietSince: MonotonicInstant?
    var quietReadings = 0
    var due = Due()
    var batch = OBDReadings()
    var batchOpen = false
    /// What the session has counted.
    public private(set) var counters = OBDCounters()
    private var reported = OBDCounters()
    /// The last exchanges, newest in bit 0: 1 for a timeout.
    private var recentTimeouts: UInt8 = 0
    private var rejectionsInARow = 0
    /// Set when the link should be closed and opened again (hung or babbling adapter).
    public private(set) var failure: String?

    struct Due {
        var rpm = MonotonicInstant.zero, fuel = MonotonicInstant.zero, odometer = MonotonicInstant.zero
        var codes = MonotonicInstant.zero, voltage = MonotonicInstant.zero, probe = MonotonicInstant.zero
    }

    public init(plan: OBDPollingPlan = OBDPollingPlan()) {
        self.plan = plan
    }

    /// The next request to send at `now` and how long to wait for its reply, or nil when
    /// nothing is due (then wait until ``nextWake``) or a reply is awaited.
    public mutating func nextRequest(at now: MonotonicInstant) -> (request: OBDRequest, timeout: Double)? {
        guard inFlight == nil, failure == nil else { return nil }
        if queue.isEmpty { schedule(now) }
        guard !queue.isEmpty else { return nil }
        let request = queue.removeFirst()
        inFlight = request
        return (request, plan.timeout(for: request, searching: engineRunning != true))
    }

    /// When something falls due next (meaningful while ``nextRequest(at:)`` returns nil).
    public var nextWake: MonotonicInstant {
        switch phase {
        case .initializing, .discovering: return .zero
        case .silent: return min(due.probe, due.voltage)
        case .polling:
            var wake = min(due.rpm, due.voltage)
            if engineRunning == true { wake = min(wake, due.fuel, due.odometer, due.codes) }
            return wake
        }
    }

    /// Takes the outcome of the request in flight; returns what it means.
    public mutating func handle(_ exchange: ELMExchange, at now: MonotonicInstant) -> [OBDEvent] {
        guard let request = inFlight else { return [] }
        inFlight = nil
        var events: [OBDEvent] = []
        switch exchange {
        case .timedOut:
            counters.timeouts += 1
            // Counted over the last six exchanges, not in a row: a slow adapter's late reply
            // lands on the next request (and is refused there unless it happens to fit).
            recentTimeouts = recentTimeouts << 1 | 1
            let recent = (recentTimeouts & 0b11_1111).nonzeroBitCount
            if recent >= plan.maximumTimeouts { failure = "no reply to \(request.command) (\(recent) of the last 6 requests timed out)" }
            apply(request, .noData, now, &events, timedOut: true)
        case .overflow:
            recentTimeouts <<= 1
            apply(request, .invalid(.tooLong), now, &events)
        case .reply(let bytes):
            recentTimeouts <<= 1
            counters.exchanges += 1
            apply(request, ELMResponseParser.parse(bytes, command: request.command, data: request.expectsData), now, &events)
        }
        if queue.isEmpty, batchOpen || !batch.isEmpty {
            events.append(.readings(batch))
            batch = OBDReadings()
            batchOpen = false
        }
        if counters.timeouts != reported.timeouts || counters.rejected != reported.rejected || counters.busErrors != reported.busErrors {
            reported = counters
            events.append(.counters(counters))
        }
        return events
    }

    // MARK: - Replies

    private mutating func apply(_ request: OBDRequest, _ r: ELMResponse, _ now: MonotonicInstant, _ events: inout [OBDEvent], timedOut: Bool = false) {
        switch request {
        case .reset:
            if case .invalid(let why) = r { reject(why) }
            info.identity = OBDDecoder.identity(r) ?? info.identity
        case .echoOff, .linefeedsOff, .spacesOff, .headersOff, .automaticProtocol:
            if case .invalid(let why) = r { reject(why) }
        case .voltage:
            if let v = value(OBDDecoder.voltage(r)) { batch.voltage = v }
        case .supportedPIDs(let base):
            let bitmap = value(OBDDecoder.bitmap(r, service: 0x01, base: base))
            if let bitmap { info.supported.insert(bitmap: bitmap, base: base) }
            if base == 0 {
                bitmap == nil ? goSilent(now, &events) : carAnswered(now, &events)
            } else if bitmap != nil, info.supported.contains(base &+ 0x20), base < 0xA0 {
                queue.append(.supportedPIDs(base: base + 0x20))
            } else {
                queue.append(.vehicleInfoPIDs)
            }
        case .vehicleInfoPIDs:
            if let bitmap = value(OBDDecoder.bitmap(r, service: 0x09, base: 0)) {
                vehicleInfoPIDs.insert(bitmap: bitmap, base: 0)
                vehicleInfoPIDs.contains(0x02) ? queue.append(.vin) : finishDiscovery(now, &events)
            } else {
                queue.append(.vin)  // no bitmap: ask anyway, NO DATA costs nothing
            }
        case .vin:
            switch OBDDecoder.vin(r) {
            case .success(let vin): info.vin = vin
            case .failure(let f):
                if case .rejected(let why) = f {
                    reject(why)
                    info.vinProblem = why
                } else if case .adapterError = f {
                    counters.busErrors += 1
                }
            }
            finishDiscovery(now, &events)
        case .rpm:
            switch OBDDecoder.rpm(r) {
            case .success(let rpm):
                rejectionsInARow = 0
                events.append(.rpm(rpm))
                rpm > 0 ? engineTurns(now, &events) : quiet(now, &events)
            case .failure(.rejected(let why)): reject(why)
            case .failure(.adapterError):
                counters.busErrors += 1
                quiet(now, &events)
            case .failure(.noAnswer):
                if !timedOut { quiet(now, &events) }
            }
        case .speed:
            if let v = value(OBDDecoder.speed(r)) { events.append(.speed(v)) }
        case .fuelLevel:
            if let v = value(OBDDecoder.fuelLevel(r)) { batch.fuelPercent = v }
        case .odometer:
            if let v = value(OBDDecoder.odometer(r)) { batch.odometerKm = v }
        case .storedCodes:
            if let codes = value(OBDDecoder.troubleCodes(r, service: 0x03)) { batch.storedCodes = codes }
        case .pendingCodes:
            if let codes = value(OBDDecoder.troubleCodes(r, service: 0x07)) { batch.pendingCodes = codes }
        }
    }

    /// The value, or nil after counting why there is none.
    private mutating func value<T>(_ result: Result<T, OBDFailure>) -> T? {
        switch result {
        case .success(let v):
            rejectionsInARow = 0
            return v
        case .failure(.rejected(let why)): reject(why)
        case .failure(.adapterError): counters.busErrors += 1
        case .failure(.noAnswer): break
        }
        return nil
    }

    private mutating func reject(_ why: ELMRejection) {
        counters.rejected += 1
        counters.lastRejection = why
        rejectionsInARow += 1
        if rejectionsInARow >= plan.maximumRejections { failure = "\(rejectionsInARow) replies in a row refused (last: \(why.rawValue))" }
    }
}
