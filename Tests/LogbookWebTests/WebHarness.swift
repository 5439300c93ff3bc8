// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookRecords
import LogbookTestSupport
import Logging
import NIOCore
import ServiceLifecycle

@testable import LogbookWeb

/// Runs the web app in this process (through the builder seam) on a free loopback port.
enum WebHarness {
    static func run(_ configuration: WebConfiguration, liveOptions: LiveBridge.Options = .init(), _ body: (WebApp, HTTPTestClient) async throws -> Void)
        async throws
    {
        var configuration = configuration
        configuration.listen = ListenAddress(host: "127.0.0.1", port: 0)
        var logger = Logger(label: "web-test")
        logger.logLevel = .warning
        let app = try WebApp(configuration: configuration, logger: logger, liveOptions: liveOptions)
        let (ports, portSink) = AsyncStream<Int>.makeStream()
        let application = buildApplication(app) { address in portSink.yield(address?.port ?? 0) }
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else { throw POSIXError(.EADDRNOTAVAIL) }
            do {
                try await body(app, HTTPTestClient(port: port))
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    /// A configuration for a daemon whose directories are in `dir`.
    static func configuration(_ dir: TemporaryDirectory, password: String? = nil) -> WebConfiguration {
        var c = WebConfiguration()
        c.stateDirectory = dir.file("state")
        c.runtimeDirectory = dir.file("run")
        c.password = password
        c.vehicles = [ConfiguredVehicle(id: "golf", record: VehicleRecord(name: "Golf"))]
        c.configuredWebStateDirectory = dir.file("web")
        return c
    }

    /// Socket file descriptors `pid` holds open.
    static func socketCount(of pid: Int32) -> Int {
        let dir = "/proc/\(pid)/fd"
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return fds.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/" + $0))?.hasPrefix("socket:") == true }.count
    }
}

/// A real logbookd on a private gpsd replaying a drive, configured for the web tests.
struct DaemonUnderTest {
    let dir: TemporaryDirectory
    let gpsd: GPSDReplay
    let daemon: DaemonProcess

    init(_ dir: TemporaryDirectory, log: String = "munich-gps.nmea", speed: Double = 10) async throws {
        self.dir = dir
        gpsd = try GPSDReplay(log: TestPaths.gpsLog(log), realtime: speed)
        let cfg = dir.file("logbookd.toml")
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "\(gpsd.address)"
            [[vehicle]]
            id = "golf"
            name = "Golf"
            """.write(toFile: cfg, atomically: true, encoding: .utf8)
        let notify = try NotifySocketListener(path: dir.file("notify"))
        daemon = try DaemonProcess(arguments: ["--config", cfg], environment: ["NOTIFY_SOCKET": notify.path])
        guard await notify.waitFor("READY=1") else { throw POSIXError(.ETIMEDOUT) }
    }

    func stop() async {
        _ = await daemon.stop()
        gpsd.stop()
    }
}
