// SPDX-License-Identifier: MIT

/// What paces ``TickerService``: the real clock in the daemon, a source a test drives tick by
/// tick (the ticker's logic, no sleeps). Asked only while ticks are wanted: a parked daemon asks
/// for none, so it sets no timer.
protocol TickSource: Sendable {
    /// Returns when the next tick is due, `interval` after it was asked for; throws when cancelled.
    func next(after interval: Duration) async throws
}

/// The real clock: the next tick one interval on.
struct SleepingTickSource: TickSource {
    func next(after interval: Duration) async throws { try await Task.sleep(for: interval) }
}
