// swift-tools-version: 6.2
import PackageDescription

/// The package's directory, for link inputs that need an absolute path.
let packageDirectory = String(#filePath.dropLast("/Package.swift".count))

let package = Package(
    name: "Logbook",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "logbookd", targets: ["logbookd"]),
        .executable(name: "logbook", targets: ["logbook"]),
        .executable(name: "logbook-uplink", targets: ["logbook-uplink"]),
        .executable(name: "logbook-web", targets: ["logbook-web"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // ── web ── (no default traits: neither swift-configuration nor full Foundation needed)
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    ],
    targets: [
        // C libraries, each behind a system-library module with a prefixed shim header.
        // libgps-dev, linked statically through Sources/CLogbookGPS/liblogbook-gps.so
        // (no pkgConfig: its `-lgps` would link the shared one as well).
        .systemLibrary(name: "CLogbookGPS"),
        .systemLibrary(
            name: "CLogbookSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(
            name: "CLogbookGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        .systemLibrary(
            name: "CLogbookSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),

        // Pure core: no C, no I/O.
        .target(name: "LogbookCore"),

        // The shared configuration file: TOML parsing, typed reading, which process owns which table.
        // (Its TOML parser is plain Swift: TOMLKit's C++ toml++ and Foundation stayed out of logbookd.)
        .target(name: "LogbookConfig"),

        // The control-socket protocol shared by the daemon, the CLI and the web app:
        // commands, request parsing, replies, error codes, and a blocking client.
        .target(name: "LogbookControl", dependencies: ["LogbookCore", "LogbookGarage"]),

        // The journal's hash chain and signatures through libsodium (SHA-256, Ed25519), a small C
        // library on every Raspberry Pi OS; swift-crypto's BoringSSL stays out of logbookd.
        .target(name: "LogbookSodium", dependencies: ["CLogbookSodium"]),
        .target(
            name: "LogbookJournal",
            dependencies: [
                "LogbookCore", "LogbookSodium",
                .product(name: "Logging", package: "swift-log"),
            ]),

        // Adapters: the only modules that import C.
        .target(
            name: "LogbookGPSD",
            dependencies: ["CLogbookGPS", "LogbookCore", .product(name: "Logging", package: "swift-log")],
            linkerSettings: [.unsafeFlags(["-L", "\(packageDirectory)/Sources/CLogbookGPS"], .when(platforms: [.linux]))]),
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
                "LogbookGPIO", "LogbookGarage",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]),

        .executableTarget(
            name: "logbookd",
            dependencies: [
                "LogbookDaemon", "LogbookSystemd",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["hot-text.ld", "link"],
            // Link flags that cut logbookd's resident memory (docs/memory.md; guarded by
            // scripts/tests.d/25-daemon-image.sh). lld, because gold lacks the first:
            // - compact relative relocations (DT_RELR, glibc >= 2.36): 10 KiB instead of a
            //   1.2 MiB table read at every start;
            // - no dynamic symbol table: the toolchain's static-stdlib link exports every public
            //   symbol (13,000, 1.1 MiB of .dynsym/.dynstr/.gnu.hash, all of it resident);
            //   nothing loads code against a daemon.
            linkerSettings: [
                .unsafeFlags(
                    ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"],
                    .when(platforms: [.linux])),
                // The static libstdc++ for the static Swift runtime's C++ (Sources/logbookd/link).
                .unsafeFlags(["-L", "\(packageDirectory)/Sources/logbookd/link"], .when(platforms: [.linux])),
                // The code the daemon runs, gathered at the front of its text (.text.hot, listed
                // by bench/hot-text.sh): the kernel maps text 64 KiB around each page executed,
                // so code run from all over a 13 MiB .text kept ~9 MiB of it resident.
                .unsafeFlags(
                    ["-Xlinker", "-T", "-Xlinker", "\(packageDirectory)/Sources/logbookd/hot-text.ld"],
                    .when(platforms: [.linux], configuration: .release)),
            ]),
        .executableTarget(
            name: "logbook",
            dependencies: [
                "LogbookCore", "LogbookConfig", "LogbookControl", "LogbookJournal", "LogbookDaemon", "LogbookStore",
                "LogbookExport", "LogbookPlaces", "LogbookGarage", "LogbookGarageStore", "LogbookImport",
                "LogbookUplink", "LogbookPostgres",  // uplink status, verify --witness
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

        // ── export ──
        // Exports (GPX, GeoJSON, CSV) and the trip picture (SVG, HTML): pure Swift, no C, no
        // Foundation, so the web app can use it too.
        .target(name: "LogbookExport", dependencies: ["LogbookCore"]),
        .testTarget(
            name: "LogbookExportTests",
            dependencies: ["LogbookExport", "LogbookCore", "LogbookJournal", "LogbookTestSupport"],
            exclude: ["Schemas"]),
        // Export throughput on a real journal, in release (bench/export-bench.sh).
        .executableTarget(
            name: "logbook-export-bench",
            dependencies: ["LogbookCore", "LogbookExport", "LogbookJournal"]),

        // ── import: GPX, GeoJSON, CSV and Google location history into trips (issue 26) ──
        // Streaming parsers (an XML and a JSON tokenizer of its own, no Foundation) and the
        // trip cutter that drives the pure TripEngine on the positions' own clock.
        .target(name: "LogbookImport", dependencies: ["LogbookCore"], path: "Sources/Projections/LogbookImport"),
        .testTarget(
            name: "LogbookImportTests",
            dependencies: ["LogbookImport", "LogbookCore", "LogbookJournal", "LogbookTestSupport",
                           .product(name: "Logging", package: "swift-log")]),

        // ── index: the rebuildable SQLite projection of the journal (issue 8, part A) ──
        .target(
            name: "LogbookStore",
            dependencies: ["LogbookCore", "LogbookConfig", "LogbookJournal", .product(name: "GRDB", package: "GRDB.swift")]),
        // Writes a synthetic multi-year journal through JournalWriter (bench/index-bench.sh and
        // the export, garage and web benches reuse it).
        .executableTarget(
            name: "logbook-journal-gen",
            dependencies: ["LogbookCore", "LogbookJournal", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "LogbookStoreTests",
            dependencies: ["LogbookStore", "LogbookCore", "LogbookJournal", "LogbookTestSupport",
                           .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "Logging", package: "swift-log")]),
        // ── uplink: the journal to MQTT (Home Assistant) and PostgreSQL (issue 11) ──
        .systemLibrary(
            name: "CLogbookMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .systemLibrary(name: "CLogbookPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // Follower, cursors, sinks as Services, message and SQL building: no C library.
        .target(
            name: "LogbookUplink",
            dependencies: [
                "LogbookCore", "LogbookConfig", "LogbookJournal",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // Adapters: the only importers of libmosquitto and libpq.
        .target(name: "LogbookMQTT", dependencies: ["CLogbookMosquitto", "LogbookUplink"]),
        .target(name: "LogbookPostgres", dependencies: ["CLogbookPQ", "LogbookUplink"]),
        .executableTarget(
            name: "logbook-uplink",
            dependencies: [
                "LogbookUplink", "LogbookMQTT", "LogbookPostgres", "LogbookConfig", "LogbookJournal", "LogbookCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            // The cuts logbookd's link has (docs/memory.md): lld with compact relative
            // relocations and no dynamic symbol table, so the static runtime's relocation
            // table and 13,000 exported symbols are not paged in at every start.
            linkerSettings: [
                .unsafeFlags(
                    ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"],
                    .when(platforms: [.linux]))
            ]),
        // Writes the journal bench/uplink-bench.sh drains (figures printed by the script).
        .executableTarget(
            name: "logbook-uplink-bench",
            dependencies: ["LogbookCore", "LogbookJournal", "LogbookTestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "LogbookUplinkTests",
            dependencies: [
                "LogbookUplink", "LogbookMQTT", "LogbookPostgres", "LogbookJournal", "LogbookCore", "LogbookConfig",
                "LogbookTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // ── end uplink ──

        // ── places ──
        // Offline place names (the GeoNames bundle, memory-mapped) and named places. No C
        // library, no Foundation: the daemon may use it.
        .target(name: "LogbookPlaces", dependencies: ["LogbookCore"]),
        .testTarget(name: "LogbookPlacesTests", dependencies: ["LogbookPlaces", "LogbookCore", "LogbookTestSupport"]),
        // Lookup time on the real bundle vs a linear scan (bench/places-bench.sh).
        .executableTarget(name: "logbook-places-bench", dependencies: ["LogbookPlaces", "LogbookCore"]),

        // ── garage: vehicles, fuel logs, economy, KPIs (issue 9) ──
        // Entry fields and their validation, the garage projection, economy and KPIs: pure
        // Swift on LogbookCore, shared by the daemon, the CLI and the web app.
        .target(name: "LogbookGarage", dependencies: ["LogbookCore"]),
        // The garage as the trip index holds it (KPIs, reminders, the report): the CLI's and
        // the web app's one reader.
        .target(
            name: "LogbookGarageStore",
            dependencies: ["LogbookCore", "LogbookGarage", "LogbookJournal", "LogbookPlaces", "LogbookStore"]),
        .testTarget(name: "LogbookGarageTests", dependencies: ["LogbookGarage", "LogbookCore"]),
        // ── lean: fuzzing ──
        // libFuzzer harnesses over the four parsers (scripts/fuzz.sh builds them with the
        // fuzzer and ASan; the ordinary build replays corpus files through them).
        .executableTarget(
            name: "logbook-fuzz",
            dependencies: ["LogbookConfig", "LogbookControl", "LogbookCore", "LogbookDaemon", "LogbookJournal"]),
        .testTarget(name: "LogbookConfigTests", dependencies: ["LogbookConfig", "LogbookTestSupport"]),
        // ── end lean ──

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
                "LogbookCore", "LogbookConfig", "LogbookControl", "LogbookStore", "LogbookExport",
                "LogbookGarage", "LogbookGarageStore", "LogbookPlaces",
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
            dependencies: ["LogbookWeb", "LogbookCore", "LogbookControl", "LogbookConfig", "LogbookJournal", "LogbookGarage", "LogbookTestSupport",
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

// Each function of the daemon's own modules in a section of its own (release), so that the
// link can gather the ones logbookd runs (Sources/logbookd/hot-text.ld) without their
// neighbours. (Dependencies keep one .text per file: SwiftPM passes no flags to them.)
let daemonModules: Set<String> = [
    "logbookd", "LogbookDaemon", "LogbookCore", "LogbookConfig", "LogbookControl", "LogbookJournal", "LogbookSodium",
    "LogbookGPSD", "LogbookSystemd", "LogbookGPIO", "LogbookGarage",
]
for target in package.targets where daemonModules.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? [])
        + [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))]
}
