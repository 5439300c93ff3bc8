// SPDX-License-Identifier: MIT
internal import LogbookCore

/// The OpenAPI 3 document served at `/api/openapi.json`, written by hand next to the routes it
/// describes (schemathesis checks that it matches them: scripts/tests.d/50-web.sh). A Swift
/// string rather than an embedded resource: `.embedInCode` turns a file into an array literal
/// of bytes, which takes the type checker minutes at this size.
enum OpenAPIDocument {
    /// The served document: ``base`` with the reads of ``records`` and the writes made from
    /// the command table (``WriteRoute/all``) merged in.
    static let text: String = merged().serialized

    /// The hand-written part: sessions, the live state, trips, the garage's reads.
    static let base = #"""
{
  "openapi": "3.0.3",
  "info": {
    "title": "logbook-web",
    "version": "1",
    "description": "The JSON API of the logbook's web app. SI units, ISO 8601 UTC times, trip ids as strings (the field names of `logbook trips list --json` and of live.json). Without a password (loopback only) every browser gets a session cookie; writes need its CSRF token in X-CSRF-Token. With a password: log in (POST /api/session) or send `Authorization: Bearer <password>`. Every refusal is a 4xx with {\"error\":{\"code\",\"message\"}}."
  },
  "servers": [{"url": "/"}],
  "components": {
    "securitySchemes": {
      "bearer": {"type": "http", "scheme": "bearer"},
      "session": {"type": "apiKey", "in": "cookie", "name": "logbook_session"}
    },
    "schemas": {
      "Error": {
        "type": "object", "required": ["error"],
        "properties": {"error": {"type": "object", "required": ["code", "message"],
          "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}
      },
      "Session": {
        "type": "object", "required": ["login_required", "authenticated", "csrf_token"],
        "properties": {
          "login_required": {"type": "boolean"},
          "authenticated": {"type": "boolean"},
          "csrf_token": {"type": "string", "nullable": true}
        }
      },
      "Vehicle": {
        "type": "object", "required": ["id", "name"],
        "properties": {
          "id": {"type": "string"}, "name": {"type": "string"},
          "make": {"type": "string", "nullable": true}, "model": {"type": "string", "nullable": true},
          "year": {"type": "integer", "nullable": true}, "registration": {"type": "string", "nullable": true}
        }
      },
      "Live": {
        "description": "The daemon's live state (live.json, schema 1), as it wrote it.",
        "type": "object", "required": ["schema"],
        "properties": {"schema": {"type": "integer", "enum": [1]}, "trip": {"type": "object", "nullable": true},
          "last_trip": {"type": "object", "nullable": true}, "gps": {"type": "object", "nullable": true}}
      },
      "CommandReply": {
        "description": "logbookd's reply to a control command.",
        "type": "object", "required": ["ok"], "properties": {"ok": {"type": "boolean", "enum": [true]}}
      },
      "Position": {
        "type": "object", "nullable": true, "required": ["lat", "lon"],
        "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}}
      },
      "Trip": {
        "type": "object",
        "required": ["id", "active", "vehicle", "started_at", "ended_at", "start_reason", "end_reason", "distance_m", "duration_s",
          "avg_speed_mps", "max_speed_mps", "points", "discarded", "recovered", "state", "start", "end"],
        "properties": {
          "id": {"type": "string", "pattern": "^[1-9][0-9]*$"},
          "active": {"type": "boolean"},
          "vehicle": {"allOf": [{"$ref": "#/components/schemas/Vehicle"}], "nullable": true},
          "started_at": {"type": "string", "nullable": true},
          "ended_at": {"type": "string", "nullable": true},
          "start_reason": {"type": "string"},
          "end_reason": {"type": "string", "nullable": true},
          "distance_m": {"type": "number", "minimum": 0},
          "duration_s": {"type": "number", "minimum": 0},
          "avg_speed_mps": {"type": "number"},
          "max_speed_mps": {"type": "number"},
          "points": {"type": "integer", "minimum": 0},
          "discarded": {"type": "boolean"},
          "recovered": {"type": "boolean"},
          "state": {"type": "string", "enum": ["open", "closed", "discarded"]},
          "start": {"$ref": "#/components/schemas/Position"},
          "end": {"$ref": "#/components/schemas/Position"},
          "start_place": {"type": "string", "nullable": true, "description": "Where the trip started, named as `logbook trips list` names it: a named place, a privacy zone, or \"near TOWN\" from the offline place bundle; null when unknown."},
          "end_place": {"type": "string", "nullable": true, "description": "Where the trip ended, named as start_place."},
          "driver": {"type": "string", "nullable": true},
          "voided": {"type": "boolean"},
          "void_reason": {"type": "string", "nullable": true},
          "corrected": {"type": "boolean"},
          "merged_from": {"type": "array", "items": {"type": "string"}},
          "split_from": {"type": "string", "nullable": true}
        }
      },
      "TripDetail": {
        "allOf": [{"$ref": "#/components/schemas/Trip"}, {
          "type": "object", "required": ["gaps", "summary"],
          "properties": {
            "gaps": {"type": "array", "items": {"type": "object", "required": ["from", "to", "seconds", "bridged"],
              "properties": {"from": {"type": "string"}, "to": {"type": "string"}, "seconds": {"type": "number"}, "bridged": {"type": "boolean"}}}},
            "summary": {"type": "string"}
          }}]
      },
      "TripList": {
        "type": "object", "required": ["trips", "totals"],
        "properties": {
          "trips": {"type": "array", "items": {"$ref": "#/components/schemas/Trip"}},
          "totals": {"type": "object", "required": ["trips", "distance_m", "duration_s", "discarded"],
            "properties": {"trips": {"type": "integer"}, "distance_m": {"type": "number"}, "duration_s": {"type": "number"}, "discarded": {"type": "integer"}, "voided": {"type": "integer"}}}
        }
      }
    },
    "parameters": {
      "TripID": {"name": "id", "in": "path", "required": true, "description": "The trip number.", "schema": {"type": "string"}}
    },
    "responses": {
      "BadRequest": {"description": "Bad input.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "Unauthorized": {"description": "Log in first, or wrong password.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "Forbidden": {"description": "CSRF token missing or wrong, or a cross-site write.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "NotFound": {"description": "No such trip (or command).", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "Conflict": {"description": "The daemon refused: no trip to stop, one already running.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "TooLarge": {"description": "The body is over 64 KiB.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "UnsupportedType": {"description": "The body is not application/json.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "Unprocessable": {"description": "The daemon refused the arguments (an unknown vehicle).", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "TooMany": {"description": "Too many wrong passwords: wait Retry-After seconds.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "Unavailable": {"description": "logbookd or the trip index is not reachable.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    }
  },
  "security": [{"session": []}, {"bearer": []}],
  "paths": {
    "/api/session": {
      "get": {"summary": "The session: whether a login is needed, and the CSRF token.", "security": [],
        "responses": {"200": {"description": "The session.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Session"}}}},
          "401": {"$ref": "#/components/responses/Unauthorized"}, "429": {"$ref": "#/components/responses/TooMany"}}},
      "post": {"summary": "Log in with the password (sets the session cookie).", "security": [],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["password"], "additionalProperties": false,
          "properties": {"password": {"type": "string"}}}}}},
        "responses": {"200": {"description": "Logged in.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Session"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "409": {"description": "This server has no password.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "413": {"$ref": "#/components/responses/TooLarge"}, "415": {"$ref": "#/components/responses/UnsupportedType"},
          "429": {"$ref": "#/components/responses/TooMany"}}},
      "delete": {"summary": "Log out.",
        "responses": {"200": {"description": "Logged out.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Session"}}}},
          "401": {"$ref": "#/components/responses/Unauthorized"}, "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooMany"}}}
    },
    "/api/live": {
      "get": {"summary": "The daemon's live state now.",
        "responses": {"200": {"description": "live.json, schema 1.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Live"}}}},
          "401": {"$ref": "#/components/responses/Unauthorized"}, "429": {"$ref": "#/components/responses/TooMany"},
          "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/api/live/events": {
      "get": {"summary": "Server-Sent Events: `event: live` with each live-state document (at least every 2 s), `: ping` every 15 s.",
        "responses": {"200": {"description": "An endless event stream.", "content": {"text/event-stream": {"schema": {"type": "string"}}}},
          "401": {"$ref": "#/components/responses/Unauthorized"}, "429": {"$ref": "#/components/responses/TooMany"}}}
    },
    "/api/vehicles": {
      "get": {"summary": "The vehicles a trip may start with (the registry: the journal's and the configured ones, retired ones left out) and the default one.",
        "responses": {"200": {"description": "Vehicles.", "content": {"application/json": {"schema": {"type": "object", "required": ["vehicles", "default_vehicle"],
          "properties": {"vehicles": {"type": "array", "items": {"$ref": "#/components/schemas/Vehicle"}}, "default_vehicle": {"type": "string", "nullable": true}}}}}},
          "401": {"$ref": "#/components/responses/Unauthorized"}, "429": {"$ref": "#/components/responses/TooMany"}}}
    },
    "/api/trip/start": {
      "post": {"summary": "Start a trip now (logbookd's trip.start).",
        "requestBody": {"required": false, "content": {"application/json": {"schema": {"type": "object", "additionalProperties": false,
          "properties": {"vehicle": {"type": "string", "nullable": true}}}}}},
        "responses": {"200": {"description": "Started.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CommandReply"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"}, "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/Conflict"}, "413": {"$ref": "#/components/responses/TooLarge"},
          "415": {"$ref": "#/components/responses/UnsupportedType"}, "422": {"$ref": "#/components/responses/Unprocessable"},
          "429": {"$ref": "#/components/responses/TooMany"}, "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/api/trip/stop": {
      "post": {"summary": "End the running trip (end reason `manual`).",
        "requestBody": {"required": false, "content": {"application/json": {"schema": {"type": "object", "additionalProperties": false, "properties": {}}}}},
        "responses": {"200": {"description": "Stopped.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CommandReply"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"}, "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/Conflict"}, "413": {"$ref": "#/components/responses/TooLarge"},
          "415": {"$ref": "#/components/responses/UnsupportedType"}, "422": {"$ref": "#/components/responses/Unprocessable"},
          "429": {"$ref": "#/components/responses/TooMany"}, "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/api/trips": {
      "get": {"summary": "Trips, newest first, with totals over the ones listed (discarded trips listed, not counted).",
        "parameters": [
          {"name": "vehicle", "in": "query", "schema": {"type": "string"}, "description": "Only this vehicle's trips."},
          {"name": "since", "in": "query", "schema": {"type": "string"}, "description": "YYYY-MM-DD (local) or ISO 8601 UTC."},
          {"name": "until", "in": "query", "schema": {"type": "string"}, "description": "YYYY-MM-DD (that day included) or ISO 8601 UTC."},
          {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 50}},
          {"name": "include_discarded", "in": "query", "schema": {"type": "string", "enum": ["true", "false"], "default": "true"}, "description": "List trips too short to keep (never counted)."},
          {"name": "include_voided", "in": "query", "schema": {"type": "string", "enum": ["true", "false"], "default": "true"}, "description": "List trips a person voided (never counted)."}
        ],
        "responses": {"200": {"description": "Trips.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TripList"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "429": {"$ref": "#/components/responses/TooMany"}, "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/api/trips/{id}": {
      "get": {"summary": "One trip with its gaps and share summary.", "parameters": [{"$ref": "#/components/parameters/TripID"}],
        "responses": {"200": {"description": "The trip.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TripDetail"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "404": {"$ref": "#/components/responses/NotFound"}, "429": {"$ref": "#/components/responses/TooMany"},
          "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/api/trips/{id}/picture.svg": {
      "get": {"summary": "The trip's picture: route coloured by speed, speed chart, stat cards (LogbookExport).", "parameters": [{"$ref": "#/components/parameters/TripID"}],
        "responses": {"200": {"description": "An SVG document.", "content": {"image/svg+xml": {"schema": {"type": "string"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "404": {"$ref": "#/components/responses/NotFound"}, "429": {"$ref": "#/components/responses/TooMany"},
          "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/api/trips/{id}/track": {
      "get": {"summary": "The trip's route for the map: per point t_s, lat, lon, speed_mps and its colour band; the band colours; start and end with navigation links.", "parameters": [{"$ref": "#/components/parameters/TripID"}],
        "responses": {"200": {"description": "The route.", "content": {"application/json": {"schema": {"type": "object",
            "required": ["id", "max_speed_mps", "colors", "fields", "points", "start", "end"],
            "properties": {"id": {"type": "string"}, "max_speed_mps": {"type": "number"}, "colors": {"type": "array", "items": {"type": "string"}},
              "fields": {"type": "array", "items": {"type": "string"}}, "points": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
              "start": {"type": "object", "nullable": true}, "end": {"type": "object", "nullable": true}}}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "404": {"$ref": "#/components/responses/NotFound"}, "429": {"$ref": "#/components/responses/TooMany"},
          "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/api/trips/{id}/export": {
      "get": {"summary": "The trip as GPX 1.1, GeoJSON or CSV (a download).",
        "parameters": [{"$ref": "#/components/parameters/TripID"},
          {"name": "format", "in": "query", "schema": {"type": "string", "enum": ["gpx", "geojson", "csv"], "default": "gpx"}}],
        "responses": {"200": {"description": "The file.", "content": {
            "application/gpx+xml": {"schema": {"type": "string"}},
            "application/geo+json": {"schema": {"type": "object"}},
            "text/csv": {"schema": {"type": "string"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "404": {"$ref": "#/components/responses/NotFound"}, "429": {"$ref": "#/components/responses/TooMany"},
          "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/api/stats": {
      "get": {"summary": "The dashboard's KPIs over a rolling range and the service reminders (as `logbook stats --json`).",
        "parameters": [
          {"name": "range", "in": "query", "schema": {"type": "string", "enum": ["week", "month", "3months", "year", "all"], "default": "all"}},
          {"name": "vehicle", "in": "query", "schema": {"type": "string"}, "description": "Only this vehicle."}
        ],
        "responses": {"200": {"description": "The KPIs.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Stats"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "404": {"$ref": "#/components/responses/NotFound"}, "429": {"$ref": "#/components/responses/TooMany"},
          "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/api/garage": {
      "get": {"summary": "Every vehicle (configured and added) and the service tasks' states.",
        "responses": {"200": {"description": "The garage.", "content": {"application/json": {"schema": {"type": "object", "required": ["vehicles", "service"],
          "properties": {"vehicles": {"type": "array", "items": {"$ref": "#/components/schemas/GarageVehicle"}},
            "service": {"type": "array", "items": {"$ref": "#/components/schemas/ServiceDue"}}}}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "404": {"$ref": "#/components/responses/NotFound"}, "429": {"$ref": "#/components/responses/TooMany"},
          "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/api/fuel": {
      "get": {"summary": "Fuel logs, newest first (voided ones left out).",
        "parameters": [
          {"name": "vehicle", "in": "query", "schema": {"type": "string"}},
          {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 50}}
        ],
        "responses": {"200": {"description": "Fuel logs.", "content": {"application/json": {"schema": {"type": "object", "required": ["fuel_logs"],
          "properties": {"fuel_logs": {"type": "array", "items": {"$ref": "#/components/schemas/FuelLog"}}}}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "404": {"$ref": "#/components/responses/NotFound"}, "429": {"$ref": "#/components/responses/TooMany"},
          "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/api/fuel/stations": {
      "get": {"summary": "Stations refuelled at (logbook fuel stations --json): de-duplicated, nearest to the car first, with navigation links.",
        "parameters": [{"name": "vehicle", "in": "query", "schema": {"type": "string"}}],
        "responses": {"200": {"description": "The stations.", "content": {"application/json": {"schema": {"type": "object", "required": ["from", "stations", "unplaced"],
          "properties": {"from": {"type": "object", "nullable": true}, "unplaced": {"type": "integer"},
            "stations": {"type": "array", "items": {"type": "object", "required": ["lat", "lon", "visits", "litres", "price_per_litre", "links"]}}}}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "404": {"$ref": "#/components/responses/NotFound"}, "429": {"$ref": "#/components/responses/TooMany"},
          "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/api/report": {
      "get": {"summary": "The yearly mileage report: CSV sealed with the journal's chain head, or the printable A4 page.",
        "parameters": [
          {"name": "year", "in": "query", "schema": {"type": "integer", "minimum": 1980, "maximum": 2200}, "description": "Default: this year (UTC)."},
          {"name": "vehicle", "in": "query", "schema": {"type": "string"}},
          {"name": "format", "in": "query", "schema": {"type": "string", "enum": ["csv", "html"], "default": "csv"}}
        ],
        "responses": {"200": {"description": "The report.", "content": {"text/csv": {"schema": {"type": "string"}}, "text/html": {"schema": {"type": "string"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "404": {"$ref": "#/components/responses/NotFound"}, "429": {"$ref": "#/components/responses/TooMany"},
          "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/api/openapi.json": {
      "get": {"summary": "This document.", "security": [],
        "responses": {"200": {"description": "OpenAPI 3.", "content": {"application/json": {"schema": {"type": "object"}}}}}}
    }
  }
}
"""#
}
