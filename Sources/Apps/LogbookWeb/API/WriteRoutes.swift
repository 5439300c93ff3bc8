// SPDX-License-Identifier: MIT
internal import HTTPTypes
internal import Hummingbird
internal import LogbookCore
internal import LogbookRecords

/// One JSON API route that records an entry: the body carries the command's fields (the
/// names of the control socket and `docs/reference/records.md`), the path the subject.
struct WriteRoute: Sendable {
    var method: HTTPRequest.Method
    var path: String
    var command: String
    /// The request field the path's `:id` fills; nil when the body names the subject.
    var subject: String?

    init(_ method: HTTPRequest.Method, _ path: String, _ command: String, subject: String? = nil) {
        self.method = method
        self.path = path
        self.command = command
        self.subject = subject
    }

    /// Every write the CLI makes, as the web API offers it.
    static let all: [WriteRoute] = [
        WriteRoute(.post, "/api/vehicles", "vehicle.add"),
        WriteRoute(.patch, "/api/vehicles/:id", "vehicle.amend", subject: "vehicle"),
        WriteRoute(.post, "/api/vehicles/:id/retire", "vehicle.retire", subject: "vehicle"),
        WriteRoute(.post, "/api/fuel", "fuel.add"),
        WriteRoute(.patch, "/api/fuel/:id", "fuel.amend", subject: "subject"),
        WriteRoute(.post, "/api/fuel/:id/void", "fuel.void", subject: "subject"),
        WriteRoute(.post, "/api/fuel/pending/:id/dismiss", "fuel.dismiss", subject: "subject"),
        WriteRoute(.post, "/api/odometer", "odometer.add"),
        WriteRoute(.patch, "/api/odometer/:id", "odometer.amend", subject: "subject"),
        WriteRoute(.post, "/api/odometer/:id/void", "odometer.void", subject: "subject"),
        WriteRoute(.post, "/api/service", "service.add"),
        WriteRoute(.post, "/api/service/:id/done", "service.done", subject: "task"),
        WriteRoute(.post, "/api/service/:id/remove", "service.remove", subject: "task"),
        WriteRoute(.post, "/api/places", "place.add"),
        WriteRoute(.patch, "/api/places/:id", "place.amend", subject: "place"),
        WriteRoute(.post, "/api/places/:id/remove", "place.remove", subject: "place"),
        WriteRoute(.post, "/api/trips/:id/class", "trip.classify", subject: "trip"),
        WriteRoute(.post, "/api/trips/:id/void", "trip.void", subject: "trip"),
        WriteRoute(.post, "/api/trips/:id/restore", "trip.restore", subject: "trip"),
        WriteRoute(.post, "/api/trips/:id/assign", "trip.assign", subject: "trip"),
        WriteRoute(.post, "/api/trips/:id/merge", "trip.merge", subject: "trip"),
        WriteRoute(.post, "/api/trips/:id/split", "trip.split", subject: "trip"),
    ]

    /// The method's name in the OpenAPI document.
    var methodName: String { method == .patch ? "patch" : "post" }

    /// The members a body may have: the command's fields but the path's and `origin`.
    var bodyFields: Set<String> {
        Set((EntryCommand.named(command)?.requestFields ?? []).map(\.name)).subtracting([subject ?? "", EntryCommand.originField.name])
    }
}

extension WebApp {
    /// The JSON API's writes (``WriteRoute/all``): auth and CSRF as every write, the body
    /// checked for unknown members, then ``record(_:_:)`` as the forms do.
    func addWriteRoutes(to router: Router<WebContext>) {
        for route in WriteRoute.all {
            let handler: @Sendable (Request, WebContext) async throws -> Response = { request, context in
                var request = request
                var fields: [(String, JSONValue)] = []
                if let subject = route.subject {
                    if subject == "trip" {
                        fields.append((subject, .number(Double(try Self.tripID(context.parameters.get("id")).rawValue))))
                    } else {
                        fields.append((subject, .string(try Self.pathParameter(context))))
                    }
                }
                let body = try await JSONBody.object(&request, context: context, allowed: route.bodyFields)
                fields += Self.pairs(body)
                try Self.checkCorrection(route.command, fields)
                return Responses.json(try await record(route.command, fields))
            }
            if route.method == .patch {
                router.patch(RouterPath(route.path), use: handler)
            } else {
                router.post(RouterPath(route.path), use: handler)
            }
        }
    }
}
