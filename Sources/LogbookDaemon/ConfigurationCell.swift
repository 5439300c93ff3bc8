// SPDX-License-Identifier: MIT
internal import Synchronization

/// The configuration in force, shared by the pipeline (which replaces it on a reload) and
/// the control handler (which checks vehicle ids against it).
final class ConfigurationCell: Sendable {
    private let value: Mutex<DaemonConfiguration>

    init(_ configuration: DaemonConfiguration) { value = Mutex(configuration) }

    var current: DaemonConfiguration {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
