// swift-tools-version: 6.2
import PackageDescription

// The targets, layer by layer, the way data flows through them (docs/architecture.md):
//
//   Core         pure Swift values and rules: fixes, trips, the record schema, the config file
//   Platform     system calls and C libraries: POSIX, libsodium, libsystemd
//   Ingest       where fixes and vehicle signals come from: gpsd (libgps), GPIO (libgpiod)
//   Journal      the single source of truth: the append-only journal, the control protocol
//   Projections  what is built from the journal: the trip index, exports, places, the garage
//   Apps         the processes: logbookd, logbook, logbook-web, logbook-uplink
//   Dev          test support, benchmarks, fuzzers
//
// A module may import modules of its own layer or below, never above, and only its adapter
// imports a C module (scripts/check-layers.py checks both in the test command).

/// The package's directory, for link inputs that need an absolute path.
let packageDirectory = String(#filePath.dropLast("/Package.swift".count))

/// logbookd's order file, a build product (`bench/hot-text.sh` profiles this machine's build and
/// writes `.build/hot-text/logbookd.ld`): when `LOGBOOK_HOT_TEXT` names it, the release link
/// gathers the code the daemon runs at the front of its text. Without it the daemon is the same
/// program with more of its text resident (docs/memory.md).
let hotTextFile = orderFile("LOGBOOK_HOT_TEXT")
/// logbook-uplink's, the same way (`bench/hot-text-uplink.sh`, `.build/hot-text/logbook-uplink.ld`).
let uplinkHotTextFile = orderFile("LOGBOOK_UPLINK_HOT_TEXT")

func orderFile(_ variable: String) -> String? {
    Context.environment[variable].flatMap { path in
        path.isEmpty ? nil : path.hasPrefix("/") ? path : packageDirectory + "/" + path
    }
}

let log = Target.Dependency.product(name: "Logging", package: "swift-log")
let serviceLifecycle = Target.Dependency.product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
let unixSignals = Target.Dependency.product(name: "UnixSignals", package: "swift-service-lifecycle")
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")
let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto")

/// A library module of `layer`.
func module(
    _ layer: String, _ name: String, _ dependencies: [Target.Dependency] = [], exclude: [String] = [],
    resources: [Resource]? = nil, linkerSettings: [LinkerSetting]? = nil
) -> Target {
    .target(
        name: name, dependencies: dependencies, path: "Sources/\(layer)/\(name)", exclude: exclude,
        resources: resources, linkerSettings: linkerSettings)
}

/// A C library behind a `.systemLibrary` module with a prefixed `shim.h`.
func cModule(_ layer: String, _ name: String, pkgConfig: String? = nil, apt: [String] = []) -> Target {
    .systemLibrary(
        name: name, path: "Sources/\(layer)/\(name)", pkgConfig: pkgConfig,
        providers: apt.isEmpty ? nil : [.apt(apt)])
}

/// An executable of `layer`.
func program(
    _ layer: String, _ name: String, _ dependencies: [Target.Dependency], exclude: [String] = [],
    linkerSettings: [LinkerSetting]? = nil
) -> Target {
    .executableTarget(
        name: name, dependencies: dependencies, path: "Sources/\(layer)/\(name)", exclude: exclude,
        linkerSettings: linkerSettings)
}

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
        // The web app (no default traits: neither swift-configuration nor full Foundation needed).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        // NIOHTTPTypes: the web app's connection guard sees Hummingbird's request parts.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    ],
    targets: [
        // ── Core: pure Swift, no C, no I/O ──
        module("Core", "LogbookCore"),
        // The typed schema of what a person enters (vehicles, fuel, odometer, service, places,
        // classifications, trip corrections): fields, validation, JSON coding, the write commands.
        module("Core", "LogbookRecords", ["LogbookCore"]),

        // ── Platform: system calls, C libraries, and the config file on disk ──
        // The one place for POSIX system calls every process shares: named threads, the condition
        // lock, atomic file replace, system errors, hex. Foundation-free, for logbookd.
        // Its adapter for what Glibc's module does not export (eventfd, naming a thread).
        cModule("Platform", "CLogbookPOSIX"),
        module("Platform", "LogbookPOSIX", ["CLogbookPOSIX"]),
        // The config file every process reads: a TOML 1.0 parser in plain Swift and typed reading
        // that names the key at fault (TOMLKit's C++ and Foundation stay out of logbookd).
        module("Platform", "LogbookConfig", ["LogbookPOSIX"]),
        // The shared configuration schema every process reads from that file: directories,
        // vehicles, sources, privacy zones, trip detection, hooks (one parser, one set of rules).
        module("Platform", "LogbookSettings", ["LogbookConfig", "LogbookCore", "LogbookRecords", log]),
        // The one crypto stack of every process, libsodium: SHA-256, Ed25519 for the journal,
        // HMAC/HKDF-SHA-256 for the web's sessions (swift-crypto's BoringSSL stays out of them all;
        // it is a test dependency, the second implementation the cross-checks compare with).
        cModule("Platform", "CLogbookSodium", pkgConfig: "libsodium", apt: ["libsodium-dev"]),
        module("Platform", "LogbookSodium", ["CLogbookSodium"]),
        cModule("Platform", "CLogbookSystemd", pkgConfig: "libsystemd", apt: ["libsystemd-dev"]),
        module("Platform", "LogbookSystemd", ["CLogbookSystemd", "LogbookCore", "LogbookPOSIX", log]),

        // ── Ingest: fixes and vehicle signals ──
        // libgps-dev, linked statically through Sources/Ingest/CLogbookGPS/liblogbook-gps.so
        // (no pkgConfig: its `-lgps` would link the shared one as well).
        cModule("Ingest", "CLogbookGPS"),
        module(
            "Ingest", "LogbookGPSD", ["CLogbookGPS", "LogbookCore", "LogbookPOSIX", log],
            linkerSettings: [
                .unsafeFlags(["-L", "\(packageDirectory)/Sources/Ingest/CLogbookGPS"], .when(platforms: [.linux]))
            ]),
        cModule("Ingest", "CLogbookGPIOD", pkgConfig: "libgpiod", apt: ["libgpiod-dev"]),
        module("Ingest", "LogbookGPIO", ["CLogbookGPIOD", "LogbookCore", "LogbookPOSIX", log]),
        // OBD-II through an ELM327 adapter (serial or TCP): a pure parser and dialogue, and a
        // thread of its own for the I/O. No C library: plain Glibc.
        module("Ingest", "LogbookOBD", ["LogbookCore", "LogbookRecords", "LogbookPOSIX", log]),

        // ── Journal: the single source of truth, and the protocol that writes to it ──
        module("Journal", "LogbookJournal", ["LogbookCore", "LogbookRecords", "LogbookPOSIX", "LogbookSodium", log]),
        // The control-socket protocol shared by the daemon, the CLI and the web app: commands,
        // request parsing, replies, error codes, and a blocking client.
        module("Journal", "LogbookControl", ["LogbookCore", "LogbookRecords", "LogbookPOSIX", "LogbookJournal"]),

        // ── Projections: built from the journal ──
        // The trip index: a rebuildable SQLite projection of the journal (GRDB).
        module("Projections", "LogbookStore", ["LogbookCore", "LogbookConfig", "LogbookRecords", "LogbookJournal", "LogbookPOSIX", grdb]),
        // Offline place names (the GeoNames bundle, memory-mapped) and named places.
        module("Projections", "LogbookPlaces", ["LogbookCore", "LogbookRecords", "LogbookPOSIX", "LogbookSodium"]),
        // GPX/GeoJSON/CSV and the trip picture: pure Swift, no Foundation.
        module("Projections", "LogbookExport", ["LogbookCore"]),
        // Entry fields and validation, the garage projection, economy, KPIs and the report.
        module("Projections", "LogbookGarage", ["LogbookCore", "LogbookRecords", "LogbookPOSIX"]),
        // GPX, GeoJSON, CSV and Google location history into trips: streaming parsers (an XML and
        // a JSON tokenizer of its own, no Foundation) and the trip cutter that drives the pure
        // TripEngine on the positions' own clock.
        module("Projections", "LogbookImport", ["LogbookCore", "LogbookPOSIX", "LogbookSodium"]),
        // The garage as the trip index holds it: the CLI's and the web app's one reader.
        module(
            "Projections", "LogbookGarageStore",
            ["LogbookCore", "LogbookConfig", "LogbookGarage", "LogbookJournal", "LogbookPlaces", "LogbookStore"]),

        // ── Apps: the processes ──
        module(
            "Apps", "LogbookDaemon",
            [
                "LogbookCore", "LogbookSettings", "LogbookRecords", "LogbookPOSIX", "LogbookControl", "LogbookJournal",
                "LogbookGPSD", "LogbookSystemd", "LogbookGPIO", "LogbookOBD", "LogbookGarage", log, serviceLifecycle, unixSignals,
            ]),
        program(
            "Apps", "logbookd", ["LogbookDaemon", "LogbookPOSIX", "LogbookSystemd", log],
            exclude: ["link"],
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
                // The static libstdc++ for the static Swift runtime's C++ (Sources/Apps/logbookd/link).
                .unsafeFlags(["-L", "\(packageDirectory)/Sources/Apps/logbookd/link"], .when(platforms: [.linux])),
                // The code the daemon runs, gathered at the front of its text (.text.hot, listed
                // by bench/hot-text.sh): the kernel maps text 64 KiB around each page executed,
                // so code run from all over a 13 MiB .text kept ~9 MiB of it resident.
                .unsafeFlags(
                    hotTextFile.map { ["-Xlinker", "-T", "-Xlinker", $0] } ?? [],
                    .when(platforms: [.linux], configuration: .release)),
            ]),
        program(
            "Apps", "logbook",
            [
                "LogbookCore", "LogbookConfig", "LogbookSettings", "LogbookRecords", "LogbookPOSIX", "LogbookControl",
                "LogbookJournal", "LogbookStore", "LogbookExport", "LogbookPlaces", "LogbookGarage", "LogbookGarageStore",
                "LogbookImport", "LogbookDoctor",
                "LogbookUplink",  // uplink status, verify --witness (the fleet store through logbook-uplink)
                argumentParser,
            ],
            // logbookd's link cuts (above): no relocation table or exported symbols paged in at
            // every start, no libstdc++.so. With libpq left to logbook-uplink they keep the
            // floor of every command low (docs/memory.md).
            linkerSettings: [
                .unsafeFlags(
                    ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"],
                    .when(platforms: [.linux])),
                .unsafeFlags(["-L", "\(packageDirectory)/Sources/Apps/logbookd/link"], .when(platforms: [.linux])),
            ]),
        // The set-up checks of `logbook doctor` and the web app's Setup check page (gpsd and its
        // fix, the daemon and its sources, vehicles, permissions, clock, disk): one implementation.
        module("Apps", "LogbookDoctor", ["LogbookCore", "LogbookRecords", "LogbookSettings", "LogbookControl", "LogbookPOSIX"]),
        // The web app for the phone (Hummingbird): reads the index, writes through the control socket.
        module(
            "Apps", "LogbookWeb",
            [
                "LogbookCore", "LogbookConfig", "LogbookSettings", "LogbookRecords", "LogbookPOSIX", "LogbookSodium",
                "LogbookControl", "LogbookJournal", "LogbookStore", "LogbookExport", "LogbookGarage", "LogbookGarageStore",
                "LogbookPlaces", "LogbookDoctor",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                log, serviceLifecycle, unixSignals,
            ],
            resources: [.embedInCode("Assets")]),
        program(
            "Apps", "logbook-web",
            [
                "LogbookWeb", "LogbookCore", "LogbookConfig", "LogbookPOSIX", "LogbookSystemd", .product(name: "Hummingbird", package: "hummingbird"),
                argumentParser, log, serviceLifecycle, unixSignals,
            ]),
        // The journal to MQTT (Home Assistant) and PostgreSQL: follower, cursors, sinks as Services.
        module(
            "Apps", "LogbookUplink",
            [
                "LogbookCore", "LogbookConfig", "LogbookSettings", "LogbookRecords", "LogbookPOSIX", "LogbookSodium",
                "LogbookJournal", "LogbookGarage", log, serviceLifecycle,
            ]),
        // The uplink's adapters, beside it because they implement its ports (MQTTTransport,
        // SQLConnection): the only importers of libmosquitto and libpq.
        cModule("Apps", "CLogbookMosquitto", pkgConfig: "libmosquitto", apt: ["libmosquitto-dev"]),
        module("Apps", "LogbookMQTT", ["CLogbookMosquitto", "LogbookPOSIX", "LogbookUplink"]),
        cModule("Apps", "CLogbookPQ", pkgConfig: "libpq", apt: ["libpq-dev"]),
        module("Apps", "LogbookPostgres", ["CLogbookPQ", "LogbookUplink"]),
        program(
            "Apps", "logbook-uplink",
            [
                "LogbookUplink", "LogbookMQTT", "LogbookPostgres", "LogbookConfig", "LogbookCore", "LogbookJournal",
                "LogbookPOSIX", log, serviceLifecycle, unixSignals,
            ],
            // The cuts logbookd's link has (docs/memory.md): lld with compact relative
            // relocations and no dynamic symbol table, so the static runtime's relocation
            // table and 13,000 exported symbols are not paged in at every start; the static
            // libstdc++ (logbookd's link directory), so no libstdc++.so is loaded; and its
            // order file, when there is one.
            linkerSettings: [
                .unsafeFlags(
                    ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"],
                    .when(platforms: [.linux])),
                .unsafeFlags(["-L", "\(packageDirectory)/Sources/Apps/logbookd/link"], .when(platforms: [.linux])),
                .unsafeFlags(
                    uplinkHotTextFile.map { ["-Xlinker", "-T", "-Xlinker", $0] } ?? [],
                    .when(platforms: [.linux], configuration: .release)),
            ]),

        // ── Dev: test support, benchmarks, fuzzers ──
        module("Dev", "LogbookTestSupport", ["LogbookCore", "LogbookPOSIX", log]),
        // A journal writer the crash tests kill -9 mid-stream.
        program("Dev", "logbook-crash-writer", ["LogbookCore", "LogbookJournal", log]),
        // Micro-benchmarks driven by bench/*.sh (figures printed, never asserted in tests).
        program("Dev", "logbook-bench", ["LogbookCore", "LogbookPOSIX", "LogbookJournal", log]),
        program("Dev", "logbook-export-bench", ["LogbookCore", "LogbookPOSIX", "LogbookExport", "LogbookJournal"]),
        program("Dev", "logbook-places-bench", ["LogbookPlaces", "LogbookPOSIX", "LogbookCore"]),
        // A synthetic multi-year journal written through JournalWriter (the index, export,
        // garage and web benches).
        program("Dev", "logbook-journal-gen", ["LogbookCore", "LogbookJournal", log]),
        program("Dev", "logbook-uplink-bench", ["LogbookCore", "LogbookJournal", "LogbookTestSupport", log]),
        // libFuzzer harnesses over the parsers (scripts/fuzz.sh builds them with the fuzzer and
        // ASan; the ordinary build replays corpus files through them).
        program("Dev", "logbook-fuzz", ["LogbookConfig", "LogbookSettings", "LogbookControl", "LogbookCore", "LogbookJournal", "LogbookOBD"]),

        // ── Tests, by the module they test ──
        .testTarget(name: "LogbookCoreTests", dependencies: ["LogbookCore", "LogbookTestSupport"]),
        .testTarget(name: "LogbookConfigTests", dependencies: ["LogbookConfig", "LogbookTestSupport"]),
        .testTarget(name: "LogbookPOSIXTests", dependencies: ["LogbookPOSIX", "LogbookTestSupport"]),
        // The one crypto stack against RFC vectors and against swift-crypto (a test dependency).
        .testTarget(name: "LogbookSodiumTests", dependencies: ["LogbookSodium", "LogbookPOSIX", crypto]),
        .testTarget(name: "LogbookSystemdTests", dependencies: ["LogbookSystemd", "LogbookTestSupport", log]),
        .testTarget(name: "LogbookGPSDTests", dependencies: ["LogbookGPSD", "LogbookCore", "LogbookTestSupport", log]),
        .testTarget(name: "LogbookOBDTests", dependencies: ["LogbookOBD", "LogbookCore", "LogbookRecords", "LogbookTestSupport", log]),
        // Without GPIO hardware only the error path and stop are testable (see GPIOIgnitionMonitor).
        .testTarget(name: "LogbookGPIOTests", dependencies: ["LogbookGPIO", "LogbookCore", "LogbookTestSupport", log]),
        .testTarget(
            name: "LogbookJournalTests",
            dependencies: ["LogbookJournal", "LogbookCore", "LogbookRecords", "LogbookPOSIX", "LogbookTestSupport", log, crypto]),
        .testTarget(
            name: "LogbookStoreTests", dependencies: ["LogbookStore", "LogbookCore", "LogbookJournal", "LogbookTestSupport", grdb, log]),
        .testTarget(
            name: "LogbookPlacesTests",
            dependencies: ["LogbookPlaces", "LogbookCore", "LogbookPOSIX", "LogbookSodium", "LogbookTestSupport"]),
        .testTarget(name: "LogbookImportTests", dependencies: ["LogbookImport", "LogbookCore", "LogbookTestSupport"]),
        .testTarget(
            name: "LogbookExportTests", dependencies: ["LogbookExport", "LogbookCore", "LogbookJournal", "LogbookTestSupport"],
            exclude: ["Schemas"]),
        .testTarget(name: "LogbookGarageTests", dependencies: ["LogbookGarage", "LogbookRecords", "LogbookCore"]),
        // The `logbook` command as people and scripts use it: exit codes, messages, JSON.
        // LogbookJournal: a test puts the OBD source's entries in a journal the way logbookd appends them.
        .testTarget(name: "LogbookCLITests", dependencies: ["LogbookTestSupport", "LogbookJournal", "LogbookRecords", "LogbookCore"]),
        .testTarget(
            name: "LogbookDaemonTests",
            dependencies: [
                "LogbookDaemon", "LogbookConfig", "LogbookSettings", "LogbookRecords", "LogbookCore", "LogbookControl",
                "LogbookGPSD", "LogbookJournal", "LogbookTestSupport", log, serviceLifecycle,
            ]),
        .testTarget(
            name: "LogbookWebTests",
            dependencies: [
                "LogbookWeb", "LogbookCore", "LogbookConfig", "LogbookJournal", "LogbookGarage", "LogbookExport",
                "LogbookRecords", "LogbookStore", "LogbookTestSupport", .product(name: "NIOCore", package: "swift-nio"), log,
            ]),
        .testTarget(
            name: "LogbookUplinkTests",
            dependencies: [
                "LogbookUplink", "LogbookPostgres", "LogbookJournal", "LogbookCore", "LogbookConfig",
                "LogbookRecords", "LogbookGarage", "LogbookControl", "LogbookPOSIX", "LogbookTestSupport", log,
            ]),
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

/// The package's own modules `name` depends on, itself included.
@MainActor func moduleClosure(of name: String) -> Set<String> {
    let byName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    var seen: Set<String> = []
    var queue = [name]
    while let next = queue.popLast() {
        guard seen.insert(next).inserted, let target = byName[next] else { continue }
        for dependency in target.dependencies {
            if case .byNameItem(let dep, _) = dependency { queue.append(dep) }
            if case .targetItem(let dep, _) = dependency { queue.append(dep) }
        }
    }
    return seen.filter { byName[$0]?.type != .system }
}

// The nearest-place search is arithmetic in tight loops: unoptimised, a debug build spends 4 to
// 9 ms on one lookup, and its test (10,000 lookups against a brute-force search) was the longest
// of its pass. Optimised in debug builds too; -O after SwiftPM's -Onone wins.
for target in package.targets where target.name == "LogbookPlaces" {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-O"], .when(configuration: .debug))]
}

// Each function of the daemon's own modules in a section of its own (release), so that the
// link can gather the ones logbookd runs (its hot-text list) without their neighbours. Other
// packages' modules get the flag from scripts/release-flags.sh (-Xswiftc), as SwiftPM applies
// a package's settings to its own targets only.
for target in package.targets where moduleClosure(of: "logbookd").contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? [])
        + [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))]
}
