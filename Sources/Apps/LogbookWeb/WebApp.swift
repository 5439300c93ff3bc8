// SPDX-License-Identifier: MIT
package import Hummingbird
package import Logging
package import NIOCore

/// Everything a request handler may use, built once from the configuration.
package struct WebApp: Sendable {
    package let configuration: WebConfiguration
    package let logger: Logger
    package let live: LiveBridge
    package let control: ControlGateway
    package let authority: SessionAuthority
    package let limiter: LoginLimiter
    package let assets: Assets
    package let shelf: TripShelf
    package let places: PlaceBundleCache
    package let registry: RegistryCache

    package init(configuration: WebConfiguration, logger: Logger, liveOptions: LiveBridge.Options = LiveBridge.Options()) {
        self.configuration = configuration
        self.logger = logger
        self.live = LiveBridge(
            socketPath: configuration.controlSocketPath, liveStatePath: configuration.liveStatePath, options: liveOptions, logger: logger)
        self.control = ControlGateway(socketPath: configuration.controlSocketPath)
        self.authority = SessionAuthority(password: configuration.password, lifetime: configuration.sessionLifetime)
        self.limiter = LoginLimiter()
        self.assets = Assets.shared
        self.shelf = TripShelf(
            path: configuration.indexPath, journalDirectory: configuration.journalDirectory, maxBridgedGap: configuration.maxBridgedGap)
        self.places = PlaceBundleCache(directory: configuration.placesBundle, logger: logger)
        self.registry = RegistryCache()
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
        addAssetRoutes(to: router)
        addSessionRoutes(to: router)
        addLiveRoutes(to: router)
        addLivePage(to: router)
        addTripRoutes(to: router)
        addTripPages(to: router)
        addGarageRoutes(to: router)
        addRecordRoutes(to: router)
        addWriteRoutes(to: router)
        addDashboardPage(to: router)
        addGaragePage(to: router)
        addFuelPages(to: router)
        addVehiclePages(to: router)
        addOdometerPages(to: router)
        addServicePages(to: router)
        addPlacePages(to: router)
        addReportPage(to: router)
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
) -> some ApplicationProtocol {
    buildApplication(WebApp(configuration: configuration, logger: logger), onServerRunning: onServerRunning)
}

/// Builds the application around an existing ``WebApp`` (tests inspect its parts).
package func buildApplication(
    _ app: WebApp, onServerRunning: @escaping @Sendable (SocketAddress?) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let listen = app.configuration.listen
    return Application(
        router: app.router(),
        configuration: ApplicationConfiguration(address: .hostname(listen.host, port: listen.port), serverName: "logbook-web"),
        services: [app.live],
        onServerRunning: { channel in await onServerRunning(channel.localAddress) },
        logger: app.logger)
}
