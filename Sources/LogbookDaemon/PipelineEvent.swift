// SPDX-License-Identifier: MIT
internal import LogbookGPSD

/// Everything the pipeline reacts to, merged into one stream so it is handled in order.
enum PipelineEvent: Sendable {
    /// gpsd events in arrival order (a burst arrives as one batch).
    case gps([GPSDEvent])
    /// Once a second: drives timers and proves the pipeline turns.
    case tick
}
