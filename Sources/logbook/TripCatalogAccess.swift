// SPDX-License-Identifier: MIT
import LogbookCore

/// Opens the trip index for the `trips` commands. The index (`LogbookStore`, the SQLite
/// projection of the journal) lands on its own branch; until it is merged this says so, and
/// the `trips` commands are not registered.
enum TripCatalogAccess {
    static func open(_ paths: PathOptions) throws -> any TripCatalog {
        throw CLIError.unavailable("the trip index is not part of this build (LogbookStore)")
    }
}
