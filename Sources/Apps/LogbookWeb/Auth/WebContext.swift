// SPDX-License-Identifier: MIT
package import Hummingbird
internal import NIOCore

/// The request context of `logbook-web`: who is asking and how they proved it.
package struct WebContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The peer's IP address (the login limiter's key).
    package let clientAddress: String
    /// The session from a valid cookie, or one issued for this request.
    package var session: Session?
    /// A cookie to set on the response (a new session).
    package var newSessionCookie: String?
    /// True when the request carried the password as a bearer token.
    package var bearer = false
    /// True when the request may read and write (CSRF still applies to cookie sessions).
    package var authorized = false

    package init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// Uploads are forms and small JSON documents.
    package var maxUploadSize: Int { 64 * 1024 }

    /// The CSRF token pages embed in their forms.
    package var csrfToken: String { session?.csrfToken ?? "" }
}
