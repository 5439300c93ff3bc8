// SPDX-License-Identifier: MIT

extension OpenAPIDocument {
    /// The garage's schemas and the reads that go with the writes: odometer readings, named
    /// places, a trip's history (merged into ``base``).
    static let records = #"""
{
  "components": {
    "schemas": {
      "Stats": {
        "description": "The KPIs of `logbook stats --json` (SI units, money per currency) with the service tasks' states.",
        "type": "object", "required": ["range", "total_distance_km", "fill_ups", "total_fuel_l", "total_spend", "vehicles", "trend", "service"],
        "properties": {
          "range": {"type": "string"}, "since": {"type": "string", "nullable": true}, "vehicle": {"type": "string", "nullable": true},
          "total_distance_km": {"type": "number"}, "fill_ups": {"type": "integer"}, "total_fuel_l": {"type": "number"},
          "total_spend": {"type": "object", "additionalProperties": {"type": "number"}},
          "economy_l_per_100km": {"type": "number", "nullable": true},
          "vehicles": {"type": "array", "items": {"type": "object", "required": ["id", "name", "distance_km"]}},
          "trend": {"type": "array", "items": {"type": "object", "required": ["bucket", "economy_l_per_100km", "distance_km"]}},
          "service": {"type": "array", "items": {"$ref": "#/components/schemas/ServiceDue"}}
        }
      },
      "ServiceDue": {
        "type": "object", "required": ["task", "vehicle", "name", "state"],
        "properties": {"task": {"type": "string"}, "vehicle": {"type": "string"}, "name": {"type": "string"},
          "state": {"type": "string", "enum": ["overdue", "due_soon", "ok", "unknown"]},
          "due_km": {"type": "number", "nullable": true}, "km_left": {"type": "number", "nullable": true},
          "due_at": {"type": "string", "nullable": true}, "days_left": {"type": "number", "nullable": true}}
      },
      "FuelLog": {
        "type": "object", "required": ["id", "vehicle", "at", "odometer_km", "litres", "price", "currency", "full"],
        "properties": {"id": {"type": "string"}, "number": {"type": "integer", "description": "short number (#12) for /garage/fuel/12"},
          "vehicle": {"type": "string"}, "at": {"type": "string"}, "odometer_km": {"type": "number"}, "litres": {"type": "number"}, "price": {"type": "number"}, "currency": {"type": "string"},
          "full": {"type": "boolean"}, "missed": {"type": "boolean"}, "station": {"type": "string", "nullable": true}}
      },
      "GarageVehicle": {
        "description": "A vehicle of the registry with every field of the vehicle record (null when not set).",
        "type": "object", "required": ["id", "name", "retired", "configured"],
        "properties": {"id": {"type": "string"}, "name": {"type": "string"}, "make": {"type": "string", "nullable": true},
          "model": {"type": "string", "nullable": true}, "year": {"type": "integer", "nullable": true},
          "registration": {"type": "string", "nullable": true}, "fuel_type": {"type": "string", "nullable": true},
          "tank_l": {"type": "number", "nullable": true}, "initial_odometer_km": {"type": "number", "nullable": true},
          "vin": {"type": "string", "nullable": true}, "driver": {"type": "string", "nullable": true},
          "retired": {"type": "boolean"}, "configured": {"type": "boolean"}}
      },
      "EntryReply": {
        "description": "The entry as recorded (logbookd's reply, or the same shape when the web app appended it itself because no daemon runs): its journal sequence number, type, action, subject and stored fields (a split's `new_trip` among them).",
        "type": "object", "required": ["ok", "seq", "type", "subject"],
        "properties": {"ok": {"type": "boolean", "enum": [true]}, "seq": {"type": "number"}, "type": {"type": "string"},
          "action": {"type": "string", "enum": ["add", "amend", "void"]}, "subject": {"type": "string"}, "fields": {"type": "object"}}
      },
      "Reading": {
        "type": "object", "required": ["id", "vehicle", "at", "odometer_km", "voided", "changes"],
        "properties": {"id": {"type": "string"}, "number": {"type": "integer"}, "vehicle": {"type": "string"}, "at": {"type": "string"},
          "odometer_km": {"type": "number"}, "note": {"type": "string"}, "voided": {"type": "boolean"}, "origin": {"type": "string", "nullable": true}, "changes": {"type": "integer"}}
      },
      "Place": {
        "type": "object", "required": ["id", "name", "lat", "lon", "radius_m"],
        "properties": {"id": {"type": "string"}, "name": {"type": "string"}, "lat": {"type": "number"}, "lon": {"type": "number"}, "radius_m": {"type": "number"}}
      },
      "Change": {
        "description": "One entry that changed a trip: when it was made, what it did (`change`, as `logbook trips show --history` prints it) and from where (`origin`: cli, web, config, rule, obd, import).",
        "type": "object", "required": ["seq", "recorded_at", "type", "action", "origin", "fields", "change"],
        "properties": {"seq": {"type": "number"}, "recorded_at": {"type": "string", "nullable": true}, "type": {"type": "string"},
          "action": {"type": "string"}, "origin": {"type": "string"}, "fields": {"type": "object"}, "change": {"type": "string"}}
      }
    }
  },
  "paths": {
    "/api/odometer": {
      "get": {"summary": "Odometer readings, newest first, voided ones included (as `logbook odometer list --json`).",
        "parameters": [{"name": "vehicle", "in": "query", "schema": {"type": "string"}, "description": "Only this vehicle's readings."}],
        "responses": {"200": {"description": "Readings.", "content": {"application/json": {"schema": {"type": "object", "required": ["readings"],
          "properties": {"readings": {"type": "array", "items": {"$ref": "#/components/schemas/Reading"}}}}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "404": {"$ref": "#/components/responses/NotFound"}, "429": {"$ref": "#/components/responses/TooMany"},
          "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/api/places": {
      "get": {"summary": "The named places in effect (as `logbook places list --json`).",
        "responses": {"200": {"description": "Places.", "content": {"application/json": {"schema": {"type": "object", "required": ["places"],
          "properties": {"places": {"type": "array", "items": {"$ref": "#/components/schemas/Place"}}}}}}},
          "401": {"$ref": "#/components/responses/Unauthorized"}, "429": {"$ref": "#/components/responses/TooMany"},
          "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/api/routes": {
      "get": {"summary": "The routes driven: kept trips grouped by named start and end, most driven first (as `logbook routes --json`).",
        "parameters": [{"name": "vehicle", "in": "query", "required": false, "schema": {"type": "string"}}],
        "responses": {"200": {"description": "Routes.", "content": {"application/json": {"schema": {"type": "object", "required": ["routes", "unnamed_trips"],
          "properties": {"unnamed_trips": {"type": "integer", "minimum": 0}, "routes": {"type": "array", "items": {"type": "object",
            "required": ["from", "to", "count", "median_distance_m", "median_duration_s", "fastest", "slowest", "last_driven", "trips"],
            "properties": {"from": {"type": "string"}, "to": {"type": "string"}, "count": {"type": "integer", "minimum": 1},
              "median_distance_m": {"type": "number"}, "median_duration_s": {"type": "number"},
              "fastest": {"type": "object", "properties": {"trip": {"type": "integer"}, "duration_s": {"type": "number"}}},
              "slowest": {"type": "object", "properties": {"trip": {"type": "integer"}, "duration_s": {"type": "number"}}},
              "last_driven": {"type": "string", "nullable": true}, "trips": {"type": "array", "items": {"type": "integer"}}}}}}}}}},
          "401": {"$ref": "#/components/responses/Unauthorized"}, "429": {"$ref": "#/components/responses/TooMany"},
          "503": {"$ref": "#/components/responses/Unavailable"}}}
    },
    "/api/trips/{id}/history": {
      "get": {"summary": "Every change of a trip, oldest first: classifications and corrections, its merge into another or its split from one (as `logbook trips show ID --history --json`).",
        "parameters": [{"$ref": "#/components/parameters/TripID"}],
        "responses": {"200": {"description": "The history.", "content": {"application/json": {"schema": {"type": "object", "required": ["id", "history"],
          "properties": {"id": {"type": "string"}, "history": {"type": "array", "items": {"$ref": "#/components/schemas/Change"}}}}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "404": {"$ref": "#/components/responses/NotFound"}, "429": {"$ref": "#/components/responses/TooMany"},
          "503": {"$ref": "#/components/responses/Unavailable"}}}
    }
  }
}
"""#
}
