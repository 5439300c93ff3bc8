// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookRecords
internal import Logging

extension WebApp {
    /// A form's post that records one entry: 303 to `done` (with the daemon's reply at hand)
    /// when it was recorded; else the page again, with the refusal's status, its message on
    /// top and what was typed in the form (``FormFailure``).
    ///
    /// - Parameters:
    ///   - form: the failing form's id (the page fills that form with what was typed).
    ///   - request: the command's request fields from the posted form.
    ///   - forceField: a checkbox that, ticked, logs a fill-up like one already logged.
    func formPost(
        _ request: Request, _ context: WebContext, form: String, spec: FormSpec, command: String, forceField: String? = nil,
        fields: (FormFields) async throws(APIError) -> [(String, JSONValue)],
        done: (JSONValue) -> String,
        page: (FormFailure) async throws -> Response
    ) async throws -> Response {
        var request = request
        let posted = FormFields(try await request.collectBody(upTo: context.maxUploadSize).readableBytesView)
        do throws(APIError) {
            let force = forceField.map { posted[$0] == "on" } ?? false
            let reply = try await record(command, try await fields(posted), allowDuplicateFill: force)
            return Responses.redirect(done(reply))
        } catch {
            logger.notice("web: \(command) refused", metadata: ["code": "\(error.code)", "reason": "\(error.message)"])
            var response = try await page(FormFailure(form: form, typed: spec.typed(posted), message: error.message))
            response.status = error.status
            return response
        }
    }

    /// A path parameter, percent-decoded (an id such as `golf@20261123T093000Z`).
    static func pathParameter(_ context: WebContext, _ name: String = "id") throws(APIError) -> String {
        guard let raw = context.parameters.get(name), !raw.isEmpty else { throw APIError.badRequest("\(name) is missing") }
        return FormFields.decode(raw.utf8)
    }

    /// `text` escaped for a path segment (keeps `@`, which fuel log ids carry).
    static func pathEscaped(_ text: String) -> String {
        AuthMiddleware.queryEscaped(text).replacing("%40", with: "@").replacing("/", with: "%2F")
    }

    /// The car's last position from the live state (as `logbook places add --here` asks
    /// logbookd), with the CLI's refusals: inside a privacy zone, or no fix yet.
    func carPosition() throws(APIError) -> (lat: Double, lon: Double) {
        let document: JSONValue
        do throws(LiveFile.Problem) {
            document = try live.current().json
        } catch {
            throw APIError(.serviceUnavailable, "unavailable", "the car's position comes from logbookd: \(error.description)")
        }
        if let zone = document["in_privacy_zone"]?.stringValue {
            throw APIError(.unprocessableContent, "privacy_zone", "the car is in privacy zone \(zone): its position is not known to the logbook")
        }
        guard let lat = document["gps"]?["lat"]?.doubleValue, let lon = document["gps"]?["lon"]?.doubleValue else {
            throw APIError(.unprocessableContent, "no_fix", "logbookd has no fix yet: type the position")
        }
        return (lat, lon)
    }

    /// The car's last position when logbookd knows one (the forms offer it).
    func knownCarPosition() -> (lat: Double, lon: Double)? {
        do throws(APIError) { return try carPosition() } catch { return nil }
    }

    /// `fields` with `lat`/`lon` from the car when the form's `car_position` box is ticked
    /// and no position was typed.
    func withCarPosition(_ fields: [(String, JSONValue)], _ posted: FormFields) throws(APIError) -> [(String, JSONValue)] {
        guard posted.values("car_position").contains("on"), !fields.contains(where: { $0.0 == "lat" || $0.0 == "lon" }) else { return fields }
        let p = try carPosition()
        return fields + [("lat", .number(p.lat)), ("lon", .number(p.lon))]
    }
}

extension FormHTML {
    /// The position pickers beside a form's latitude and longitude: the car's last position
    /// (the server reads it from the live state; works without script) and, on a secure page
    /// whose browser can locate itself, this phone's position (`app.js` fills the inputs).
    static func positionPickers(prefix form: String, car: (lat: Double, lon: Double)?, ticked: Bool) -> String {
        var out = ""
        if let car {
            let text = "\(Format.fixed(car.lat, digits: 5)), \(Format.fixed(car.lon, digits: 5))"
            out += "<div class=\"wide check\"><input type=\"checkbox\" id=\"\(form)-car\" name=\"car_position\" value=\"on\"\(ticked ? " checked" : "")>"
                + "<label for=\"\(form)-car\">Use the car's last position (\(HTML.escape(text)))</label></div>\n"
        }
        out += "<div class=\"wide\"><button type=\"button\" class=\"locate\" id=\"\(form)-locate\" data-prefix=\"\(form)\" hidden>Use this phone's position</button>"
            + "<span class=\"muted small\" id=\"\(form)-locate-status\"></span></div>\n"
        return out
    }
}
