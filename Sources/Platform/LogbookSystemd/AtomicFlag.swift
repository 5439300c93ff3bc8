// SPDX-License-Identifier: MIT
internal import Synchronization

/// A boolean a loop thread publishes and any thread reads.
final class AtomicFlag: Sendable {
    private let storage = Atomic<Bool>(false)
    var value: Bool {
        get { storage.load(ordering: .acquiring) }
        set { storage.store(newValue, ordering: .releasing) }
    }
}
