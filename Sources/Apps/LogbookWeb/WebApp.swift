// SPDX-License-Identifier: MIT
package import Hummingbird
internal import HummingbirdCore
package import Logging
package import NIOCore
internal import LogbookPOSIX
#if canImport(Glibc)
    internal import Glibc
#endif

/// Everything a request handler may use, built once from the configuration.
package struct WebApp: Sendable {
    /// The configuration as last (re)loaded: what a request handler reads.
    package var configuration: WebConfiguration { box.current }
    private let box: ConfigurationBox
    package let logger: Logger
    package let live: LiveBridge
    package let control: ControlGateway
    package let authority: SessionAuthority
    package let limiter: LoginLimiter
    package let assets: Assets
    package let shelf: TripShelf
    package let places: PlaceBundleCache
    package let registry: RegistryCache
    /// Leaflet from `libjs-leaflet`, read at start (``LeafletFiles``).
    let leaflet: LeafletFiles
    /// Connections open per client address (``ConnectionGuard``).
    let connections = ConnectionGuard.Registry()

    /// - Throws: ``AtomicFileError`` when the sessions file (the logouts) cannot be read or
    ///   written: `logbook-web` reports it as a config error naming `web.state_dir`.
    package init(configuration: WebConfiguration, logger: Logger, liveOptions: LiveBridge.Options = LiveBridge.Options()) throws {
        self.box = ConfigurationBox(configuration)
        self.logger = logger
        LocalTime.zone = configuration.timeZone
        self.live = LiveBridge(
            socketPath: configuration.controlSocketPath, liveStatePath: configuration.liveStatePath, options: liveOptions, logger: logger)
        self.control = ControlGateway(socketPath: configuration.controlSocketPath)
        // Logouts are kept only with a password: without one a cookie proves nothing.
        var store: RevokedSessions?
        if configuration.requiresLogin {
            let directory = configuration.webStateDirectory
            if mkdir(directory, 0o700) != 0, errno != EEXIST { throw AtomicFileError.system(.current("mkdir", path: directory)) }
            store = RevokedSessions(path: configuration.sessionsPath)
        }
        self.authority = try SessionAuthority(password: configuration.password, lifetime: configuration.sessionLifetime, store: store)
        self.limiter = LoginLimiter()
        self.assets = Assets.shared
        self.shelf = TripShelf(
            path: configuration.indexPath, journalDirectory: configuration.journalDirectory, maxBridgedGap: configuration.maxBridgedGap)
        self.places = PlaceBundleCache(directory: configuration.placesBundle, logger: logger)
        self.registry = RegistryCache()
        self.leaflet = LeafletFiles(directory: configuration.leafletDirectory)
        if !leaflet.installed { logger.warning("web: no Leaflet in \(configuration.leafletDirectory) (install libjs-leaflet): the maps are off") }
    }

    /// Applies a configuration file read again (SIGHUP): returns the keys that changed but
    /// take a restart (the listening address, directories, password, limits).
    package func reload(_ new: WebConfiguration) -> [String] {
        let kept = box.reload(new)
        LocalTime.zone = new.timeZone  // `[units] time_zone` applies on reload
        registry.invalidate()
        return kept
    }

    /// The authentication middleware for this app.
    var auth: AuthMiddleware {
        AuthMiddleware(
            authority: authority, limiter: limiter, requiresLogin: configuration.requiresLogin, secureCookies: configuration.secureCookies)
    }

    /// The router with every page and API route.
    package func router() -> Router<WebContext> {
        let router = Router(context: WebContext.self)
        router.add(middleware: ErrorMiddleware(logger: logger))
        router.add(middleware: auth)
        router.add(middleware: MapPolicyMiddleware(tileOrigin: configuration.mapTiles.origin))
        addAssetRoutes(to: router)
        addLeafletRoutes(to: router)
        addMapRoutes(to: router)
        addSessionRoutes(to: router)
        addLiveRoutes(to: router)
        addLivePage(to: router)
        addTripRoutes(to: router)
        addTripPages(to: router)
        addRoutesPages(to: router)
        addGarageRoutes(to: router)
        addRecordRoutes(to: router)
        addWriteRoutes(to: router)
        addDashboardPage(to: router)
        addGaragePage(to: router)
        addFuelPages(to: router)
        addPendingFillPages(to: router)
        addVehiclePages(to: router)
        addOdometerPages(to: router)
        addServicePages(to: router)
        addPlacePages(to: router)
        addReportPage(to: router)
        addSetupPage(to: router)
        return router
    }
}

/// Builds the `logbook-web` application: the builder seam `main` and the tests call.
///
/// - Parameters:
///   - configuration: the loaded configuration (``WebConfiguration/load(file:environment:overrides:)``).
///   - logger: the process's logger.
///   - onServerRunning: called with the bound address once the server listens (port 0 in tests).
package func buildApplication(
    configuration: WebConfiguration, logger: Logger, onServerRunning: @escaping @Sendable (SocketAddress?) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    buildApplication(try WebApp(configuration: configuration, logger: logger), onServerRunning: onServerRunning)
}

/// Builds the application around an existing ``WebApp`` (tests inspect its parts).
package func buildApplication(
    _ app: WebApp, onServerRunning: @escaping @Sendable (SocketAddress?) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let c = app.configuration
    let listen = c.listen
    let limits = ConnectionGuard.Limits(
        headerTimeout: .nanoseconds(Int64(c.headerTimeout * 1e9)), bodyTimeout: .nanoseconds(Int64(c.bodyTimeout * 1e9)),
        idleTimeout: .nanoseconds(Int64(c.idleTimeout * 1e9)))
    let registry = app.connections
    let cap = ConnectionCap.effective(c.maxConnections)
    if cap < c.maxConnections {
        app.logger.notice(
            "web: fewer connections than configured: the file limit allows \(cap)",
            metadata: ["max_connections": "\(c.maxConnections)", "file_limit": "\(ConnectionCap.fileLimit ?? 0)"])
    }
    // A long listen queue (the kernel caps it at net.core.somaxconn, 4096 by default): when a
    // burst of connections fills a short one, a new client's SYN is dropped and retried only
    // after a second, so the Live page would stall behind an attack's reconnects.
    return Application(
        router: app.router(),
        server: .http1(configuration: .init(additionalChannelHandlers: [ConnectionGuard(limits: limits, registry: registry)])),
        configuration: ApplicationConfiguration(
            address: .hostname(listen.host, port: listen.port), serverName: "logbook-web", backlog: 4096,
            availableConnectionsDelegate: MaximumAvailableConnections(cap, logger: app.logger)),
        services: [app.live],
        onServerRunning: { channel in await onServerRunning(channel.localAddress) },
        logger: app.logger)
}
