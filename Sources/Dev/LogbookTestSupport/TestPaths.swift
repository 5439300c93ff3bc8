// SPDX-License-Identifier: MIT
public import Foundation

/// Where the package, its fixtures, scripts and built products are.
public enum TestPaths {
    /// The package root, found from this source file's location
    /// (`Sources/Dev/LogbookTestSupport/TestPaths.swift`).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A recorded GPS log under `fixtures/gpslogs/`.
    public static func gpsLog(_ name: String) -> String {
        packageRoot.appendingPathComponent("fixtures/gpslogs/\(name)").path
    }

    /// A script under `scripts/`.
    public static func script(_ name: String) -> String {
        packageRoot.appendingPathComponent("scripts/\(name)").path
    }

    /// The directory holding the built executables (next to the test bundle).
    public static var productsDirectory: URL {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        // swift test runs <products>/LogbookPackageTests.xctest
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("logbookd").path), dir.path != "/" {
            dir = dir.deletingLastPathComponent()
        }
        return dir
    }

    /// A built executable, e.g. `logbookd`.
    public static func product(_ name: String) -> String {
        productsDirectory.appendingPathComponent(name).path
    }
}

/// A fresh temporary directory, removed by ``remove()``.
///
/// Kept short: Unix socket paths are limited to 108 bytes.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init(_ prefix: String = "lb") throws {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        guard let p = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) else {
            throw POSIXError(.EIO)
        }
        path = String(cString: p)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
