// SPDX-License-Identifier: MIT
internal import LogbookControl
internal import LogbookCore
public import LogbookGPSD
internal import LogbookJournal
internal import LogbookRecords
public import LogbookSettings
public import LogbookSystemd
public import Logging
public import ServiceLifecycle
public import UnixSignals
internal import LogbookPOSIX

/// Builds the daemon's services: the seam both `main` and the tests call.
public struct Daemon: Sendable {
    public let configuration: Settings
    public let gpsSource: GPSDSource
    let state = DaemonState()
    let journal: JournalWriter
    /// Every vehicle the journal and the configuration file know.
    let vehicles: VehicleRegistry
    /// Every named place the journal knows (arrival and departure events).
    let places: PlaceRegistry
    let bootID: String
    let logger: Logger
    let notifier: SystemdNotifier
    let reloadConfiguration: (@Sendable () throws -> Settings)?
    let logLevel: LogLevelSwitch?
    /// The journal's last trip, if a restart may continue it (cranking brown-out).
    let previousTrip: PreviousTrip?

    /// Prepares directories and opens (and so recovers) the journal; nothing runs until ``run()``.
    ///
    /// - Parameters:
    ///   - reload: reads the configuration again on SIGHUP (as `main` read it at start); nil
    ///     leaves SIGHUP a no-op that says so.
    ///   - logLevel: the level every logger reads, changed by a reload.
    /// - Throws: ``DaemonError`` when a directory cannot be created or the journal cannot be opened.
    public init(
        configuration: Settings, logger: Logger, notifier: SystemdNotifier = SystemdNotifier(),
        reload: (@Sendable () throws -> Settings)? = nil, logLevel: LogLevelSwitch? = nil
    ) throws {
        self.configuration = configuration
        self.logger = logger
        self.notifier = notifier
        self.reloadConfiguration = reload
        self.logLevel = logLevel
        for dir in [configuration.stateDirectory, configuration.runtimeDirectory] {
            let rc = makeDirectories(dir)
            guard rc == 0 else { throw DaemonError.directory(dir, SystemError.text(rc)) }
        }
        gpsSource = GPSDSource(endpoint: configuration.gpsd, logger: logger)
        bootID = readBootID()
        do {
            journal = try JournalWriter.open(
                JournalConfiguration(
                    directory: configuration.journalDirectory, stateDirectory: configuration.stateDirectory,
                    commitInterval: configuration.commitInterval,
                    segmentSize: (configuration.debugSegmentKiB ?? 4096) << 10,
                    maximumBacklogBytes: configuration.diskFullBufferBytes),
                logger: logger)
        } catch {
            throw DaemonError.journal("\(error)")
        }
        previousTrip = Self.previousTrip(directory: configuration.journalDirectory, upTo: journal.durableSequence, logger: logger)
        vehicles = VehicleRegistry(carried: journal.carriedAtOpen)
        places = PlaceRegistry(carried: journal.carriedAtOpen)
        try Self.seedVehicles(configuration, into: vehicles, journal: journal, logger: logger)
        let r = journal.recovery
        if r.diskFull {
            logger.error(
                "journal: disk full at start; recording into memory and retrying every commit interval",
                metadata: ["buffer_bytes": "\(configuration.diskFullBufferBytes)", "directory": "\(configuration.journalDirectory)"])
        }
        logger.info(
            r.wasUnclean ? "journal recovered after an unclean stop" : "journal opened",
            metadata: [
                "segments": "\(r.segments)", "records": "\(r.records)", "bytes_discarded": "\(r.bytesDiscarded)",
                "trips_closed_recovered": "\(r.closedTrips)",
            ])
    }

    /// The journal's last trip when it ended `recovered` or `shutdown` (read from the newest
    /// segments: O(a segment), tens of ms at most), for ``TripEngine/offerReopen(_:at:)``.
    static func previousTrip(directory: String, upTo durable: UInt64, logger: Logger) -> PreviousTrip? {
        let last: LastTrip?
        do {
            last = try JournalReader(directory: directory, upTo: durable).lastTrip()
        } catch {
            logger.warning("cannot read the last trip; a restart mid-drive starts a new trip", metadata: ["error": "\(error)"])
            return nil
        }
        guard let last, let endText = last.endReason, let end = TripReason(rawValue: endText),
            end == .recovered || end == .shutdown, let start = TripReason(rawValue: last.startReason),
            let point = last.lastPoint, let s = last.summary
        else { return nil }
        return PreviousTrip(
            id: last.id, vehicle: last.vehicleID, startReason: start, startTime: last.startTime, endReason: end,
            lastPoint: point, distance: s.distance, duration: s.duration, maxSpeed: s.maxSpeed, points: s.pointCount)
    }

    /// Journals the `[[vehicle]]` tables the journal lacks or that changed (origin `config`),
    /// then checks that every vehicle the configuration names is known.
    /// - Throws: ``DaemonError/configuration(_:)`` naming the key (exit 78).
    static func seedVehicles(_ configuration: Settings, into vehicles: VehicleRegistry, journal: JournalWriter, logger: Logger) throws {
        let now = wallClockNow()
        for entry in vehicles.seeding(configuration.vehicles) {
            do {
                _ = try journal.append(.entry(UserEntry(entry, recordedAt: now)))
                vehicles.apply(entry)
                logger.notice(
                    entry.action == .add ? "vehicle added from the configuration file" : "vehicle changed by the configuration file",
                    metadata: ["vehicle": "\(entry.subject)", "fields": "\(entry.fields.serialized)"])
            } catch {
                logger.error("vehicle from the configuration file not journaled", metadata: ["vehicle": "\(entry.subject)", "error": "\(error)"])
            }
        }
        do {
            try configuration.checkVehicleReferences(known: vehicles.activeIDs)
        } catch {
            throw DaemonError.configuration("\(error)")
        }
    }

    /// The service group; `main` runs it with SIGTERM/SIGINT as graceful-shutdown signals.
    public func makeServiceGroup(gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint]) -> ServiceGroup {
        typealias Entry = ServiceGroupConfiguration.ServiceConfiguration
        let (events, continuation) = AsyncStream.makeStream(of: PipelineEvent.self, bufferingPolicy: .bufferingOldest(1 << 16))
        let stall = StallSwitch()
        let updates = LiveUpdates()
        let socketUp = StartupGate()
        let (sourceChanges, sourceContinuation) = AsyncStream.makeStream(of: [SourceConfiguration].self, bufferingPolicy: .bufferingNewest(1))
        let reloadHooks = ReloadHooks(
            load: reloadConfiguration, logLevel: logLevel, sources: sourceContinuation, vehicles: vehicles)
        let dashboard = DashboardRefresher(configuration: configuration, logger: logger)
        let live = LiveStatePublisher(path: configuration.liveStatePath, interval: configuration.liveInterval, state: state, logger: logger)
        let ticks = TickDemand()
        var control = ControlSocketService(
            path: configuration.controlSocketPath, group: configuration.controlGroup,
            handler: DaemonControlHandler(
                state: state, events: continuation, vehicles: vehicles, places: places, journal: journal, dashboard: dashboard,
                importer: ImportTripWriter(journal: journal, wallClock: wallClockNow)),
            updates: updates, logger: logger)
        control.onListening = { socketUp.open() }
        // Shutdown runs in reverse order: tell systemd, stop the reader, close the socket,
        // drain the pipeline (the trip closes, the journal syncs), stop pinging, publish
        // the final state.
        var entries: [Entry] = [
            Entry(service: live)
        ]
        if let interval = notifier.watchdogInterval {
            entries.append(Entry(service: WatchdogService(
                interval: interval, notifier: notifier, state: state, reader: gpsSource, events: continuation, logger: logger)))
        }
        entries.append(Entry(service: PipelineService(
            events: events, state: state, notifier: notifier, logger: logger, configuration: configuration,
            journal: journal, vehicles: vehicles, places: places, bootID: bootID, stall: stall, updates: updates, startup: socketUp,
            reloadHooks: reloadHooks, previousTrip: previousTrip, ticks: ticks, live: live, dashboard: dashboard)))
        // Without its socket the daemon still records trips: a bind failure is logged, not fatal.
        entries.append(Entry(service: control, successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore))
        entries.append(Entry(service: TickerService(events: continuation, demand: ticks)))
        if let dashboard { entries.append(Entry(service: dashboard, successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore)) }
        entries.append(Entry(service: SignalSourcesService(
            configuration: configuration, sourceChanges: sourceChanges, events: continuation, logger: logger)))
        entries.append(Entry(service: GPSReaderService(source: gpsSource, events: continuation)))
        if configuration.throttledFile != "" {
            entries.append(Entry(service: ThrottleMonitor(
                file: configuration.throttledFile, interval: configuration.throttledPollInterval, events: continuation, logger: logger)))
        }
        entries.append(Entry(service: ProcessSignalService(
            events: continuation, state: state, journal: journal, gpsd: configuration.gpsd,
            stall: configuration.debugStallSignal ? stall : nil, logger: logger)))
        entries.append(Entry(service: ShutdownNotifierService(notifier: notifier, logger: logger)))
        var config = ServiceGroupConfiguration(services: entries, gracefulShutdownSignals: gracefulShutdownSignals, logger: logger)
        config.maximumGracefulShutdownDuration = .seconds(10)
        return ServiceGroup(configuration: config)
    }

    /// Runs until SIGTERM/SIGINT.
    public func run() async throws {
        try await makeServiceGroup().run()
    }
}

/// Why the daemon could not start.
public enum DaemonError: Error, CustomStringConvertible {
    case directory(String, String)
    case journal(String)
    /// The configuration names a vehicle the registry does not know (exit 78).
    case configuration(String)

    public var description: String {
        switch self {
        case .directory(let path, let why): "cannot create directory \(path): \(why)"
        case .journal(let why): "cannot open the journal: \(why)"
        case .configuration(let why): "config error: \(why)"
        }
    }
}
