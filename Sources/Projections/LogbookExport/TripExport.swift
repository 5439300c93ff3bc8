// SPDX-License-Identifier: MIT
public import LogbookCore

/// Which trips an export covers.
public enum TripSelection: Sendable, Hashable {
    /// These trips, in this order (repeats dropped).
    case trips([TripID])
    /// Every trip matching the query, oldest first.
    case matching(TripQuery)
}

/// What an export wrote.
public struct ExportSummary: Sendable, Hashable {
    /// Trips written.
    public var trips: Int
    /// Points written.
    public var points: Int
    /// Bytes written.
    public var bytes: Int

    /// Creates a summary.
    public init(trips: Int, points: Int, bytes: Int) {
        self.trips = trips
        self.points = points
        self.bytes = bytes
    }
}

/// An export that cannot be made; nothing has been written when it is thrown.
public enum ExportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No trip has this number.
    case noSuchTrip(TripID)

    public var description: String {
        switch self {
        case .noSuchTrip(let id): "no trip \(id)"
        }
    }
}

/// Streams trips from a ``LogbookCore/TripCatalog`` into a ``ByteSink`` in one format: one
/// chunk of points at a time, so memory stays flat however many trips and points there are.
public struct TripExport {
    /// The format written.
    public var format: ExportFormat
    /// Options beyond the format.
    public var options: ExportOptions

    /// Creates an export.
    public init(format: ExportFormat, options: ExportOptions = ExportOptions()) {
        self.format = format
        self.options = options
    }

    /// The trips `selection` names, checked to exist: a query's matches oldest first (the
    /// catalog lists newest first), explicit ids in the order given.
    ///
    /// - Throws: ``ExportError/noSuchTrip(_:)`` for an id the catalog does not know, and what
    ///   the catalog throws.
    public func tripIDs(_ selection: TripSelection, in catalog: some TripCatalog) throws -> [TripID] {
        switch selection {
        case .trips(let ids):
            var seen = Set<TripID>()
            var out: [TripID] = []
            for id in ids where seen.insert(id).inserted {
                guard try catalog.trip(id) != nil else { throw ExportError.noSuchTrip(id) }
                out.append(id)
            }
            return out
        case .matching(let query):
            // Ids only (8 bytes a trip): the point reads below must not run inside the
            // catalog's iteration, which may hold a database read open.
            var ids: [TripID] = []
            try catalog.forEachTrip(matching: query) {
                ids.append($0.id)
                return true
            }
            return ids.reversed()
        }
    }

    /// Writes the trips `ids` from `catalog` to `sink`.
    ///
    /// - Returns: what was written.
    /// - Throws: what the catalog or the sink throws; ``ExportError/noSuchTrip(_:)`` if a
    ///   trip vanished (a rebuilt index) after ``tripIDs(_:in:)``.
    @discardableResult
    public func write(_ ids: [TripID], from catalog: some TripCatalog, to sink: any ByteSink) throws -> ExportSummary {
        let out = ExportOutput(sink)
        switch format {
        case .gpx: return try run(GPXWriter(options: options), ids, catalog, out)
        case .geojson: return try run(GeoJSONWriter(options: options), ids, catalog, out)
        case .csv: return try run(CSVWriter(), ids, catalog, out)
        }
    }

    /// Resolves `selection` and writes it (``tripIDs(_:in:)``, then ``write(_:from:to:)``).
    @discardableResult
    public func write(_ selection: TripSelection, from catalog: some TripCatalog, to sink: any ByteSink) throws
        -> ExportSummary
    {
        try write(tripIDs(selection, in: catalog), from: catalog, to: sink)
    }

    private func run<W: TripTrackWriter>(_ writer: W, _ ids: [TripID], _ catalog: some TripCatalog, _ out: ExportOutput)
        throws -> ExportSummary
    {
        var writer = writer
        var points = 0
        writer.begin(out)
        for id in ids {
            guard let trip = try catalog.trip(id) else { throw ExportError.noSuchTrip(id) }
            let gaps = try catalog.gaps(of: id)
            var breaks = GapBreaks(gaps)
            writer.beginTrip(trip, gaps: gaps, out)
            try catalog.forEachPointChunk(of: id) { chunk in
                for p in chunk {
                    writer.point(p, newSegment: breaks.startsSegment(p), out)
                    try out.flushIfFull()  // per point: a chunk of long GPX lines can exceed a buffer
                }
                points += chunk.count
            }
            writer.endTrip(out)
            try out.flushIfFull()
        }
        writer.end(out)
        try out.flush()
        return ExportSummary(trips: ids.count, points: points, bytes: out.count)
    }
}
