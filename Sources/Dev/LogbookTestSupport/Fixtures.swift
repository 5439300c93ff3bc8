// SPDX-License-Identifier: MIT
import Foundation

/// The repository's test fixtures.
public enum Fixtures {
    /// The repository root, found from this file's path.
    public static var root: String { TestPaths.packageRoot.path }

    /// The text of `fixtures/gpslogs/NAME` (bytes that are not UTF-8 are replaced).
    public static func gpsLog(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: root + "/fixtures/gpslogs/" + name)
        return String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }
}
