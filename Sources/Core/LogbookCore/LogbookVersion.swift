// SPDX-License-Identifier: MIT

/// The product's version: the one constant every binary's `--version` prints
/// (`scripts/build-deb.sh` takes the package version from it too).
public enum LogbookVersion {
    /// The release this source tree is; `--version` prints it as `PROGRAM VERSION`.
    public static let current = "0.1.0"

    /// `logbook 0.1.0`: the `--version` line of `program`.
    public static func line(_ program: String) -> String { "\(program) \(current)" }
}
