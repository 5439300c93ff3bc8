// SPDX-License-Identifier: MIT
internal import LogbookSettings
internal import Synchronization

/// The configuration request handlers read: replaced whole by a reload (SIGHUP), so a request
/// sees either the old file or the new one, never half of each.
final class ConfigurationBox: Sendable {
    private let value: Mutex<WebConfiguration>

    init(_ configuration: WebConfiguration) { value = Mutex(configuration) }

    var current: WebConfiguration { value.withLock { $0 } }

    /// Replaces the configuration with `new`, keeping what the running process was built on
    /// (``WebConfiguration/restartOnlyKeys(from:)``); returns those keys that changed.
    func reload(_ new: WebConfiguration) -> [String] {
        value.withLock { old in
            let needRestart = new.restartOnlyKeys(from: old)
            var merged = new
            merged.keepRestartOnlyValues(of: old)
            old = merged
            return needRestart
        }
    }
}

extension WebConfiguration {
    /// The keys a reload cannot apply, because the server, the sockets, the login or the
    /// caches were built on them at start, that differ between `old` and `self`.
    func restartOnlyKeys(from old: WebConfiguration) -> [String] {
        var keys: [String] = []
        if listen != old.listen { keys.append("web.listen") }
        if stateDirectory != old.stateDirectory || indexPath != old.indexPath { keys.append("state_dir/index.path") }
        if controlSocketPath != old.controlSocketPath || liveStatePath != old.liveStatePath { keys.append("runtime_dir/control.socket") }
        if password != old.password { keys.append("web.password_file") }
        if webStateDirectory != old.webStateDirectory { keys.append("web.state_dir") }
        if sessionLifetime != old.sessionLifetime || secureCookies != old.secureCookies { keys.append("web.session_days/secure_cookies") }
        if maxConnections != old.maxConnections || headerTimeout != old.headerTimeout || idleTimeout != old.idleTimeout
            || bodyTimeout != old.bodyTimeout
        {
            keys.append("web.max_connections/timeouts")
        }
        if placesBundle != old.placesBundle { keys.append("places.bundle") }
        if logLevel != old.logLevel { keys.append("web.log_level") }
        return keys
    }

    /// Takes over `old`'s values of the restart-only keys.
    mutating func keepRestartOnlyValues(of old: WebConfiguration) {
        listen = old.listen
        stateDirectory = old.stateDirectory
        runtimeDirectory = old.runtimeDirectory
        settings.controlSocket = old.settings.controlSocket
        configuredIndexPath = old.configuredIndexPath
        password = old.password
        passwordFile = old.passwordFile
        passwordSource = old.passwordSource
        configuredWebStateDirectory = old.configuredWebStateDirectory
        sessionLifetime = old.sessionLifetime
        secureCookies = old.secureCookies
        maxConnections = old.maxConnections
        headerTimeout = old.headerTimeout
        idleTimeout = old.idleTimeout
        bodyTimeout = old.bodyTimeout
        placesBundle = old.placesBundle
        logLevel = old.logLevel
    }
}
