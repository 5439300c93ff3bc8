// SPDX-License-Identifier: MIT
package import LogbookPlaces
package import Logging
internal import Synchronization

/// The offline place-name bundle (`[places] bundle`), loaded and verified once, on the first
/// report that needs it (152 ms for the world's), then shared. Absent is normal: the report
/// shows coordinates; a damaged bundle is logged once.
package final class PlaceBundleCache: Sendable {
    private enum State: Sendable {
        case unread
        case loaded(PlaceBundle?)
    }

    private let directory: String
    private let logger: Logger
    private let state = Mutex(State.unread)

    package init(directory: String, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    /// The bundle, or nil when there is none or it is refused. Blocks on the first call: call
    /// it off the concurrency pool (the trip shelf's queue).
    package func bundle() -> PlaceBundle? {
        state.withLock { s -> PlaceBundle? in
            if case .loaded(let bundle) = s { return bundle }
            var bundle: PlaceBundle?
            do throws(PlaceBundleError) {
                bundle = try PlaceBundle.load(directory: directory)
            } catch .unreadable {
                bundle = nil
            } catch {
                logger.warning("web: place names: \(error.description); the report shows coordinates")
            }
            s = .loaded(bundle)
            return bundle
        }
    }
}
