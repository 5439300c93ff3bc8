// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookGarage
internal import LogbookDoctor
internal import LogbookRecords

/// The Live page: the trip card (vehicle, duration, distance, speed, average and top speed,
/// GPS quality) with Stop, or Start with a vehicle picker when idle, and the last trip's
/// summary for the 60 s the daemon keeps it, and the car's trouble codes (``FaultCodesCard``). Rendered from the current document; `app.js`
/// then follows `/api/live/events` and updates the `data-field` elements in place.
struct LivePage {
    var document: JSONValue?
    var vehicles: [Vehicle]
    var defaultVehicle: String?
    var format: Format
    var done: String?
    var error: String?
    /// Failing set-up checks shown above everything (``SetupPage/banner(_:)``).
    var setupProblems: [DoctorCheck] = []
    /// Stop was pressed without script: ask before ending the trip.
    var confirmStop = false

    static let notices = [
        "started": "Trip started.", "stopped": "Trip stopped.",
    ]
    static let errors = [
        "no_trip": "No trip is being recorded.",
        "daemon_unreachable": "logbookd is not reachable: is it running?",
        "unknown_vehicle": "That vehicle is not in the logbook.",
        "retired_vehicle": "That vehicle is retired.",
        "refused": "logbookd refused the command.",
        "unavailable": "logbookd is shutting down.",
    ]

    func render() -> String {
        let trip = document?["trip"].flatMap { $0.isNull ? nil : $0 }
        let last = document?["last_trip"].flatMap { $0.isNull ? nil : $0 }
        let state = document == nil ? "offline" : trip == nil ? "idle" : "trip"
        var notice = ""
        if let done, let text = Self.notices[done] { notice = "<p class=\"notice good\" role=\"status\">\(text)</p>" }
        if let error { notice = "<p class=\"notice bad\" role=\"alert\">\(HTML.escape(Self.errors[error] ?? "The command failed (\(error)).")) </p>" }
        return """
            \(SetupPage.banner(setupProblems))
            <section id="live" class="live" data-state="\(state)">
            <p class="status"><span class="dot" aria-hidden="true"></span><span data-field="status">\(statusText(state))</span>
            <span class="sep">·</span><span data-field="gps">\(HTML.escape(gpsText(document?["gps"])))</span></p>
            \(notice)
            <p class="notice bad" id="stale" role="alert" hidden>No updates from logbookd for <span data-field="stale-age">a while</span>: \
            it may have stopped, and what this page shows may be old. <a href="/setup">Setup check</a></p>
            <article class="card trip" data-show="trip"\(state == "trip" ? "" : " hidden")>
            \(tripCard(trip))
            </article>
            <article class="card idle" data-show="idle"\(state == "idle" ? "" : " hidden")>
            \(startForm())
            </article>
            <article class="card offline" data-show="offline"\(state == "offline" ? "" : " hidden")>
            <h1>logbookd is not running</h1><p class="muted">The page updates by itself once it is back. <a href="/setup">Setup check</a></p>
            </article>
            \(FaultCodesCard(document: document).render())
            <article class="card last" data-show="last"\(last == nil ? " hidden" : "")>
            <h2>Last trip</h2><p data-field="last">\(HTML.escape(lastText(last)))</p>
            </article>
            <p class="muted small">Updated <span data-field="age">\(document == nil ? "never" : "just now")</span></p>
            </section>
            \(ReasonWords.dataBlock)
            """
    }

    private func statusText(_ state: String) -> String {
        switch state {
        case "trip": "Recording"
        case "idle": "Idle"
        default: "Not connected"
        }
    }

    func gpsText(_ gps: JSONValue?) -> String {
        guard let gps, gps["connected"]?.boolValue == true else { return "gpsd not connected" }
        let mode = Int(gps["mode"]?.doubleValue ?? 0)
        guard mode >= 2 else { return "no fix" }
        var parts = ["\(mode)D fix"]
        if let sats = gps["satellites_used"]?.doubleValue { parts.append("\(Int(sats)) sat") }
        if let eph = gps["eph_m"]?.doubleValue { parts.append("±\(Format.fixed(eph, digits: 0)) m") }
        return parts.joined(separator: " · ")
    }

    private func tripCard(_ trip: JSONValue?) -> String {
        func number(_ key: String) -> Double { trip?[key]?.doubleValue ?? 0 }
        let vehicle = trip?["vehicle"]?["name"]?.stringValue ?? trip?["vehicle"]?["id"]?.stringValue ?? "Trip"
        let distance = format.distance(number("distance_m")), speed = format.speed(number("speed_mps"))
        let started = trip?["started_at"]?.stringValue
        return """
            <header><h1 data-field="vehicle">\(HTML.escape(vehicle))</h1>
            <p class="muted">since <time data-field="started" datetime="\(HTML.escape(started ?? ""))">\(Format.minute(started)) UTC</time>
            · <span data-field="reason">\(HTML.escape(trip?["start_reason"]?.stringValue.map(ReasonWords.text) ?? ""))</span></p></header>
            <div class="big">
            <div><span class="value" data-field="distance">\(distance.value)</span> <span class="unit" data-field="distance-unit">\(distance.unit)</span><span class="label">Distance</span></div>
            <div><span class="value" data-field="speed">\(speed.value)</span> <span class="unit" data-field="speed-unit">\(speed.unit)</span><span class="label">Speed</span></div>
            </div>
            <dl class="stats">
            <div><dt>Duration</dt><dd data-field="duration">\(Format.duration(number("duration_s")))</dd></div>
            <div><dt>Average</dt><dd data-field="avg">\(format.speedText(number("avg_speed_mps")))</dd></div>
            <div><dt>Top</dt><dd data-field="max">\(format.speedText(number("max_speed_mps")))</dd></div>
            <div><dt>GPS positions</dt><dd data-field="points">\(Int(number("points")))</dd></div>
            </dl>
            <form method="post" action="/trip/stop" class="action" id="stop-form"\(confirmStop ? " hidden" : "")>
            <input type="hidden" name="csrf" value="{{csrf}}">
            <button type="submit" id="stop" class="danger wide">Stop trip</button>
            </form>
            <div id="stop-confirm" class="confirm" role="alertdialog" aria-labelledby="stop-question"\(confirmStop ? "" : " hidden")>
            <p id="stop-question"><strong>End this trip now?</strong> It is closed in the logbook; a new one starts only when you press Start.</p>
            <form method="post" action="/trip/stop" class="buttons">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="confirm" value="yes">
            <button type="submit" id="stop-yes" class="danger">Yes, stop the trip</button>
            <a href="/" id="stop-no" class="button">Keep recording</a>
            </form>
            </div>
            """
    }

    private func startForm() -> String {
        var picker = ""
        if !vehicles.isEmpty {
            var options = ""
            for v in vehicles {
                let selected = v.id == defaultVehicle ? " selected" : ""
                options += "<option value=\"\(HTML.escape(v.id))\"\(selected)>\(HTML.escape(v.name))</option>"
            }
            picker = "<label for=\"vehicle\">Vehicle</label><select id=\"vehicle\" name=\"vehicle\">\(options)</select>"
        }
        return """
            <h1>No trip running</h1>
            <form method="post" action="/trip/start" class="stack action">
            <input type="hidden" name="csrf" value="{{csrf}}">
            \(picker)
            <button type="submit" id="start" class="primary wide">Start trip</button>
            </form>
            """
    }

    func lastText(_ last: JSONValue?) -> String {
        guard let last else { return "" }
        let distance = format.distanceText(last["distance_m"]?.doubleValue ?? 0)
        let duration = Format.durationWords(last["duration_s"]?.doubleValue ?? 0)
        let reason = last["end_reason"]?.stringValue.map(ReasonWords.text) ?? "?"
        let id = last["id"]?.stringValue ?? (last["id"]?.doubleValue).map { String(Int($0)) } ?? ""
        return "Trip \(id): \(distance) in \(duration), ended (\(reason))"
    }
}

extension WebApp {
    func addLivePage(to router: Router<WebContext>) {
        router.get("/") { request, context -> Response in
            let query = request.uri.queryParameters
            let page = LivePage(
                document: try? live.current().json, vehicles: await registryNow().active.map(\.vehicle), defaultVehicle: configuration.defaultVehicle,
                format: Format(imperial: configuration.imperialUnits), done: query["done"].map(String.init),
                error: query["error"].map(String.init), setupProblems: await quickSetupProblems(), confirmStop: query["confirm"] == "stop")
            let body = page.render().replacing("{{csrf}}", with: HTML.escape(context.csrfToken))
            return Responses.html(
                Layout.page(
                    title: "Live", active: "/", csrf: context.csrfToken, assets: assets,
                    units: configuration.imperialUnits ? "imperial" : "metric", signedIn: configuration.requiresLogin && !context.bearer,
                    maps: leaflet.installed,
                    body: body + "<section class=\"card\">" + MapHTML.element(id: "live-map", tiles: configuration.mapTiles, data: [], label: "Where the car is")
                        + "</section>"))
        }
    }
}
