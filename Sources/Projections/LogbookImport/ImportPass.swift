// SPDX-License-Identifier: MIT
public import LogbookCore

/// One pass over a file: read, check every item, cut trips, hand the outputs to `emit`.
///
/// The import runs it twice: first to check the whole file and find its trips (nothing is
/// written; `emit` is nil), then — only if the file is good, or `--skip-bad` — to write the
/// trips not refused (`skip`, by ``ImportedTrip/index``). Both passes cut the same trips:
/// the cutting is a pure function of the file.
public struct ImportPass {
    public var format: ImportFormat
    public var vehicle: String?
    public var trip: TripEngineConfiguration
    /// Points per ``ImportOutput/points`` batch.
    public var batch = 512

    public init(format: ImportFormat, vehicle: String?, trip: TripEngineConfiguration) {
        self.format = format
        self.vehicle = vehicle
        self.trip = trip
    }

    /// Reads `input` to its end. Bad items are collected in the summary's `issues`; a syntax
    /// error that stops the reading is the last issue (with `stopOnIssue`, the first issue
    /// ends the pass). `progress` gets the bytes read so far, now and then.
    public func run(
        _ input: ByteInput, stopOnIssue: Bool = false, skip: Set<Int> = [], progress: (Int64) -> Void = { _ in },
        emit: ((ImportOutput) async throws -> Void)? = nil
    ) async throws -> ImportSummary {
        var reader = format.reader(input)
        var summary = ImportSummary(format: format)
        var cutter = ImportTripCutter(configuration: trip, vehicle: vehicle)
        var state = TripState(format: format, batch: batch, skip: skip, emit: emit)
        var last: GPSTime?
        var reported: Int64 = 0
        loop: while true {
            let event: ImportEvent?
            do {
                event = try reader.next()
            } catch {
                summary.issues.append(ImportIssue(line: error.line, "\(error.message); nothing after it was read"))
                break
            }
            guard let event else { break }
            switch event {
            case .track(let mark?):
                try await state.apply(cutter.beginRecordedTrip(mark), &summary)
            case .track(nil):
                continue
            case .bad(let issue):
                summary.issues.append(issue)
                if stopOnIssue { break loop }
            case .point(let p):
                guard p.latitude.isFinite, p.longitude.isFinite, abs(p.latitude) <= 90, abs(p.longitude) <= 180 else {
                    summary.issues.append(ImportIssue(line: p.line, "coordinates out of range: \(p.latitude), \(p.longitude)"))
                    if stopOnIssue { break loop }
                    continue
                }
                if let last, p.time <= last {
                    if p.time == last {
                        summary.duplicates += 1
                        continue
                    }
                    summary.issues.append(ImportIssue(line: p.line, "time goes backwards: \(p.time) after \(last)"))
                    if stopOnIssue { break loop }
                    continue
                }
                last = p.time
                summary.positionsRead += 1
                state.line(p.line)
                try await state.apply(cutter.feed(p), &summary)
            }
            let read = reader.input.bytesRead
            if read - reported >= 1 << 20 {
                reported = read
                progress(read)
            }
        }
        try await state.apply(cutter.finish(), &summary)
        try await state.flush()
        var input = reader.input
        summary.contentHash = try input.finishHash()
        summary.bytes = input.bytesRead
        progress(summary.bytes)
        for (reason, n) in cutter.engine.filterCounters.rejectedByReason { summary.refused[reason] = n }
        if summary.positionsRead == 0, summary.issues.isEmpty {
            summary.issues.append(ImportIssue(line: nil, "no positions with a time in the file (0 points)"))
        }
        return summary
    }
}

/// The trip being cut: turns the engine's decisions into outputs and trip summaries.
struct TripState {
    let format: ImportFormat
    let batch: Int
    let skip: Set<Int>
    let emit: ((ImportOutput) async throws -> Void)?
    var open: ImportedTrip?
    var pending: [TripPoint] = []
    var index = 0
    var lineNow = 0

    init(format: ImportFormat, batch: Int, skip: Set<Int>, emit: ((ImportOutput) async throws -> Void)?) {
        self.format = format
        self.batch = batch
        self.skip = skip
        self.emit = emit
    }

    mutating func line(_ l: Int) { lineNow = l }

    private var writing: Bool { emit != nil && open.map { !skip.contains($0.index) } == true }

    mutating func apply(_ decisions: [TripDecision], _ summary: inout ImportSummary) async throws {
        for d in decisions {
            switch d {
            case .start(let info):
                open = ImportedTrip(
                    index: index, vehicle: info.vehicle, startReason: format.reason, endReason: "", startedAt: info.gpsTime,
                    endedAt: nil, distance: 0, duration: 0, maxSpeed: 0, averageSpeed: 0, points: 0, discarded: false,
                    firstLine: lineNow, lastLine: lineNow)
                index += 1
                if writing { try await emit?(.tripStarted(vehicle: info.vehicle, reason: format.reason, time: info.gpsTime)) }
            case .point(let p):
                open?.points += 1
                open?.lastLine = lineNow
                if writing {
                    pending.append(p)
                    if pending.count >= batch { try await flush() }
                }
            case .gap(let g):
                if writing {
                    try await flush()
                    try await emit?(.gap(g))
                }
            case .end(let info):
                guard var trip = open else { continue }
                let s = info.summary
                trip.endReason = info.reason == .service ? format.reason : info.reason.rawValue
                trip.endedAt = s.endedAt
                trip.distance = s.distanceMeters
                trip.duration = s.durationSeconds
                trip.maxSpeed = s.maxSpeedMetersPerSecond
                trip.averageSpeed = s.averageSpeedMetersPerSecond
                trip.points = s.points
                trip.discarded = info.discarded
                if writing {
                    try await flush()
                    try await emit?(.tripEnded(trip))
                }
                summary.trips.append(trip)
                open = nil
            case .adopted, .privacyZone:
                continue
            case .reopened:
                // Only a daemon restart offers a reopen (TripEngine.offerReopen); an import never does.
                continue
            }
        }
    }

    mutating func flush() async throws {
        guard !pending.isEmpty else { return }
        try await emit?(.points(pending))
        pending.removeAll(keepingCapacity: true)
    }
}
