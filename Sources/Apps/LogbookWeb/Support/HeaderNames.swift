// SPDX-License-Identifier: MIT
internal import HTTPTypes

/// Header names HTTPTypes does not predefine. `HTTPField.Name(_:)` fails only for a string that
/// is not a valid token; these literals are, so a failure is impossible (hence the fallback
/// is never used, instead of a force-unwrap).
extension HTTPField.Name {
    static let csrfToken = token("X-CSRF-Token")
    static let accelBuffering = token("X-Accel-Buffering")
    static let frameOptions = token("X-Frame-Options")
    static let referrerPolicy = token("Referrer-Policy")

    private static func token(_ name: String) -> HTTPField.Name { HTTPField.Name(name) ?? .contentType }
}
