// SPDX-License-Identifier: MIT
internal import HTTPTypes
internal import Logging
internal import Hummingbird
internal import LogbookCore
internal import LogbookGarage
internal import LogbookRecords
internal import NIOCore
internal import ServiceLifecycle

extension WebApp {
    /// `/api/live`, `/api/live/events` (Server-Sent Events), trip start/stop and vehicles.
    func addLiveRoutes(to router: Router<WebContext>) {
        router.get("/api/live") { _, _ -> Response in
            do throws(LiveFile.Problem) {
                return Responses.jsonText(try live.current().text)
            } catch {
                throw APIError(.serviceUnavailable, "unavailable", error.description)
            }
        }
        router.get("/api/live/events") { _, _ -> Response in liveEvents() }
        router.get("/api/vehicles") { _, _ -> Response in
            Responses.json(
                .object([
                    ("vehicles", .array(await registryNow().active.map(\.vehicle.json))),
                    ("default_vehicle", .string(configuration.defaultVehicle)),
                ]))
        }
        router.post("/api/trip/start") { request, context -> Response in
            var request = request
            let body = try await JSONBody.object(&request, context: context, allowed: ["vehicle"])
            let vehicle = body["vehicle"]
            guard vehicle == nil || vehicle?.isNull == true || vehicle?.stringValue != nil else {
                throw APIError.badRequest("\"vehicle\" must be a string")
            }
            return Responses.json(try await startTrip(vehicle?.stringValue))
        }
        router.post("/api/trip/stop") { request, context -> Response in
            var request = request
            _ = try await JSONBody.object(&request, context: context, allowed: [])
            return Responses.json(try await control.call(.object([("cmd", .string("trip.stop"))])))
        }
        // The Live page's forms: the same commands, answered with a redirect back.
        router.post("/trip/start") { request, context -> Response in
            var request = request
            let form = FormFields(try await request.collectBody(upTo: context.maxUploadSize).readableBytesView)
            let vehicle = form["vehicle"].flatMap { $0.isEmpty ? nil : $0 }
            return await formOutcome(done: "started") { () async throws(APIError) in _ = try await startTrip(vehicle) }
        }
        // One tap does not end a trip: without `confirm=yes` (the page's script asks in place)
        // the Live page asks first.
        router.post("/trip/stop") { request, context -> Response in
            var request = request
            let form = FormFields(try await request.collectBody(upTo: context.maxUploadSize).readableBytesView)
            guard form["confirm"] == "yes" else { return Responses.redirect("/?confirm=stop") }
            return await formOutcome(done: "stopped") { () async throws(APIError) in
                _ = try await control.call(.object([("cmd", .string("trip.stop"))]))
            }
        }
    }

    private func startTrip(_ vehicle: String?) async throws(APIError) -> JSONValue {
        var request: [(String, JSONValue)] = [("cmd", .string("trip.start"))]
        if let vehicle {
            // logbookd checks against the registry as it knows it; this catches a typo while
            // the daemon is away, with the daemon's message.
            let registry = await registryNow()
            if !registry.all.isEmpty, !registry.active.contains(where: { $0.id == vehicle }) {
                if registry.all.contains(where: { $0.id == vehicle }) {
                    throw APIError(.unprocessableContent, "retired_vehicle", "vehicle \(vehicle) is retired")
                }
                let known = registry.active.map(\.id).sorted().joined(separator: ", ")
                throw APIError(.unprocessableContent, "unknown_vehicle", "no vehicle \"\(vehicle)\" (known: \(known.isEmpty ? "none" : known))")
            }
            request.append(("vehicle", .string(vehicle)))
        }
        return try await control.call(.object(request))
    }

    /// Redirects to the Live page with a notice (`?done=`) or the refusal's code (`?error=`).
    private func formOutcome(done: String, _ body: () async throws(APIError) -> Void) async -> Response {
        do throws(APIError) {
            try await body()
            return Responses.redirect("/?done=\(done)")
        } catch {
            logger.notice("web: command refused", metadata: ["code": "\(error.code)", "reason": "\(error.message)"])
            return Responses.redirect("/?error=\(AuthMiddleware.queryEscaped(error.code))")
        }
    }

    /// A Server-Sent Events stream of live-state documents: the current one at once, then each
    /// change (every fix while driving, at least every 2 s), and a comment every 15 s so that
    /// idle connections stay open through proxies.
    private func liveEvents() -> Response {
        var headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store"]
        headers[.accelBuffering] = "no"
        Responses.secure(&headers)
        let bridge = live
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                enum Event: Sendable {
                    case document(LiveDocument)
                    case ping
                }
                let documents = bridge.subscribe()
                let (events, sink) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(2))
                try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await doc in documents { sink.yield(.document(doc)) }
                        sink.finish()
                    }
                    group.addTask {
                        while true {
                            try await Task.sleep(for: .seconds(15))
                            sink.yield(.ping)
                        }
                    }
                    defer { group.cancelAll() }
                    // The server's graceful shutdown waits for every response to end, and this
                    // one never would: SIGTERM ends the stream (logbook-web exits within 1 s
                    // with browsers connected, not when their TCP connections time out).
                    try await withGracefulShutdownHandler {
                        for await event in events {
                            switch event {
                            case .document(let doc):
                                let line = doc.text.contains("\n") ? doc.json.serialized : doc.text
                                try await writer.write(ByteBuffer(string: "event: live\ndata: \(line)\n\n"))
                            case .ping:
                                try await writer.write(ByteBuffer(string: ": ping\n\n"))
                            }
                        }
                    } onGracefulShutdown: {
                        sink.finish()
                    }
                }
                try await writer.finish(nil)
            })
    }
}
