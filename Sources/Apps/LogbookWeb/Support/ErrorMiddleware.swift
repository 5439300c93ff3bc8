// SPDX-License-Identifier: MIT
internal import HTTPTypes
internal import NIOCore
package import Hummingbird
internal import Logging

/// Turns every error into a response: JSON under `/api/`, a page elsewhere. Hummingbird's
/// own refusals (no route, body too large, bad request) keep their 4xx status; anything
/// unexpected is logged and answered 500 without details (it should never happen).
package struct ErrorMiddleware: RouterMiddleware {
    package typealias Context = WebContext
    let logger: Logger

    package func handle(_ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return render(error, request)
        } catch is NIOTooManyBytesError {
            return render(APIError(.contentTooLarge, "too_large", "the body is over 64 KiB"), request)
        } catch let error as HTTPError {
            let code = error.status.code
            let name = error.status == .notFound ? "not_found" : error.status == .contentTooLarge ? "too_large" : "bad_request"
            let apiError =
                code >= 400 && code < 500
                ? APIError(error.status, name, error.body ?? error.status.reasonPhrase)
                : APIError(.internalServerError, "internal", "internal error")
            if code >= 500 { logger.error("web: \(request.method) \(request.uri.path): \(error)") }
            return render(apiError, request)
        } catch {
            logger.error("web: \(request.method) \(request.uri.path): \(error)")
            return render(APIError(.internalServerError, "internal", "internal error"), request)
        }
    }

    private func render(_ error: APIError, _ request: Request) -> Response {
        var response: Response
        if request.uri.path.hasPrefix("/api/") || request.headers[.accept]?.hasPrefix("application/json") == true {
            response = Responses.json(error.json, status: error.status)
        } else {
            response = Responses.html(Layout.errorPage(error), status: error.status)
        }
        for field in error.headers { response.headers.append(field) }
        return response
    }
}
