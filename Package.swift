// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Logbook",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "logbookd", targets: ["logbookd"]),
        .executable(name: "logbook", targets: ["logbook"]),
        .executable(name: "logbook-web", targets: ["logbook-web"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // ── web ── (no default traits: neither swift-configuration nor full Foundation needed)
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    ],
    targets: [
        // C libraries, each behind a system-library module with a prefixed shim header.
        .systemLibrary(
            name: "CLogbookGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        .systemLibrary(
            name: "CLogbookSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(
            name: "CLogbookGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),

        // Pure core: no C, no I/O.
        .target(name: "LogbookCore"),

        // The shared configuration file: TOML parsing, typed reading, which process owns which table.
        .target(
            name: "LogbookConfig",
            dependencies: [.product(name: "TOMLKit", package: "TOMLKit")]),

        // The control-socket protocol shared by the daemon, the CLI and the web app:
        // commands, request parsing, replies, error codes, and a blocking client.
        .target(name: "LogbookControl", dependencies: ["LogbookCore"]),

        .target(
            name: "LogbookJournal",
            dependencies: [
                "LogbookCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // Adapters: the only modules that import C.
        .target(
            name: "LogbookGPSD",
            dependencies: ["CLogbookGPS", "LogbookCore", .product(name: "Logging", package: "swift-log")]),
        .target(
            name: "LogbookSystemd",
            dependencies: ["CLogbookSystemd", "LogbookCore", .product(name: "Logging", package: "swift-log")]),
        .target(
            name: "LogbookGPIO",
            dependencies: ["CLogbookGPIOD", "LogbookCore", "LogbookSystemd", .product(name: "Logging", package: "swift-log")]),

        .target(
            name: "LogbookDaemon",
            dependencies: [
                "LogbookCore", "LogbookConfig", "LogbookControl", "LogbookJournal", "LogbookGPSD", "LogbookSystemd",
                "LogbookGPIO",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]),

        .executableTarget(
            name: "logbookd",
            dependencies: [
                "LogbookDaemon", "LogbookSystemd",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "logbook",
            dependencies: [
                "LogbookCore", "LogbookConfig", "LogbookControl", "LogbookJournal", "LogbookDaemon",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // A journal writer the crash tests kill -9 mid-stream.
        .executableTarget(
            name: "logbook-crash-writer",
            dependencies: ["LogbookCore", "LogbookJournal", .product(name: "Logging", package: "swift-log")]),
        // Micro-benchmarks driven by bench/*.sh (figures printed, never asserted in tests).
        .executableTarget(
            name: "logbook-bench",
            dependencies: ["LogbookCore", "LogbookJournal", .product(name: "Logging", package: "swift-log")]),

        .target(
            name: "LogbookTestSupport",
            dependencies: ["LogbookCore"]),

        .testTarget(name: "LogbookCoreTests", dependencies: ["LogbookCore", "LogbookTestSupport"]),
        .testTarget(
            name: "LogbookJournalTests",
            dependencies: ["LogbookJournal", "LogbookCore", "LogbookTestSupport",
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(
            name: "LogbookGPSDTests",
            dependencies: ["LogbookGPSD", "LogbookCore", "LogbookTestSupport",
                           .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "LogbookSystemdTests",
            dependencies: ["LogbookSystemd", "LogbookTestSupport",
                           .product(name: "Logging", package: "swift-log")]),
        // Without GPIO hardware only the error path and stop are testable (see GPIOIgnitionMonitor).
        .testTarget(
            name: "LogbookGPIOTests",
            dependencies: ["LogbookGPIO", "LogbookCore", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "LogbookDaemonTests",
            dependencies: ["LogbookDaemon", "LogbookConfig", "LogbookCore", "LogbookControl", "LogbookGPSD", "LogbookJournal", "LogbookTestSupport",
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]),

        // ── web ── logbook-web: the Hummingbird app for the phone (pages, JSON API, live SSE).
        // Reads the index, writes through the control socket; never opens the journal to write.
        .target(
            name: "LogbookWeb",
            dependencies: [
                "LogbookCore", "LogbookConfig", "LogbookControl",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.embedInCode("Assets")]),
        .executableTarget(
            name: "logbook-web",
            dependencies: [
                "LogbookWeb", "LogbookSystemd",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "LogbookWebTests",
            dependencies: ["LogbookWeb", "LogbookCore", "LogbookControl", "LogbookConfig", "LogbookTestSupport",
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "Logging", package: "swift-log")]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
