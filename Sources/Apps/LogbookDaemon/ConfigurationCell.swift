// SPDX-License-Identifier: MIT
import LogbookSettings
internal import Synchronization

/// The configuration in force, shared by the pipeline (which replaces it on a reload) and
/// the control handler (which checks vehicle ids against it).
final class ConfigurationCell: Sendable {
    private let value: Mutex<Settings>

    init(_ configuration: Settings) { value = Mutex(configuration) }

    var current: Settings {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
