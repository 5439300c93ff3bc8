// SPDX-License-Identifier: MIT
internal import Logging
internal import ServiceLifecycle
internal import UnixSignals

/// Reloads the configuration file on SIGHUP (`systemctl reload logbook-web`): vehicles, the
/// default vehicle, units and `[trip]` apply to the next request; what the server was built
/// on (address, directories, password, limits) is kept, and the log names it as needing a restart.
/// A file with a mistake changes nothing: the log names the key.
package struct ReloadOnHangup: Service {
    let app: WebApp
    let load: @Sendable () throws -> WebConfiguration

    /// - Parameter load: reads the configuration as at start (same file, flags, environment).
    package init(app: WebApp, load: @escaping @Sendable () throws -> WebConfiguration) {
        self.app = app
        self.load = load
    }

    package func run() async throws {
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        for await _ in hangups.cancelOnGracefulShutdown() {
            reloadNow()
        }
    }

    /// One reload: the file read again and applied.
    package func reloadNow() {
        do {
            let kept = app.reload(try load())
            app.logger.info("web: configuration reloaded", metadata: kept.isEmpty ? [:] : ["needs_restart": "\(kept.joined(separator: ", "))"])
        } catch {
            app.logger.error("web: configuration not reloaded: \(error)")
        }
    }
}
