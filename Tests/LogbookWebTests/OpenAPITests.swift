// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookRecords
import Testing

@testable import LogbookWeb

/// The served OpenAPI document: its hand-written parts parse, and every write route (made from
/// the command table) is in it with the fields its command takes — schemathesis then checks
/// the server against it (`scripts/tests.d/50-web.sh`).
struct OpenAPITests {
    @Test func everyWriteRouteIsDescribedWithItsCommandsFields() throws {
        for part in [OpenAPIDocument.base, OpenAPIDocument.records] {
            #expect(throws: Never.self) { try JSONValue.parse(part) }
        }
        let document = try JSONValue.parse(OpenAPIDocument.text)
        #expect(document["openapi"] == .string("3.0.3"))
        for route in WriteRoute.all {
            let path = route.path.replacing(":id", with: "{id}")
            let operation = document["paths"]?[path]?[route.methodName]
            #expect(operation != nil, "\(route.method) \(path) is not documented")
            let schema = operation?["requestBody"]?["content"]?["application/json"]?["schema"]
            let documented = Set((schema?["properties"].flatMap { value -> [String]? in
                if case .object(let members) = value { members.map(\.0) } else { nil }
            }) ?? [])
            #expect(documented == route.bodyFields, "\(path): \(documented) vs \(route.bodyFields)")
            #expect(operation?["responses"]?["200"]?["content"]?["application/json"]?["schema"]?["$ref"] == .string("#/components/schemas/EntryReply"))
        }
        #expect(document["paths"]?["/api/fuel"]?["get"] != nil && document["paths"]?["/api/fuel"]?["post"] != nil)
        #expect(document["paths"]?["/api/trips/{id}/history"]?["get"] != nil)
        #expect(document["components"]?["schemas"]?["Change"] != nil && document["components"]?["schemas"]?["Trip"] != nil)
        let splitBody = document["paths"]?["/api/trips/{id}/split"]?["post"]?["requestBody"]?["content"]?["application/json"]?["schema"]
        #expect(splitBody?["required"] == .array([.string("at")]))
        let voidBody = document["paths"]?["/api/trips/{id}/void"]?["post"]?["requestBody"]?["content"]?["application/json"]?["schema"]
        #expect(voidBody?["required"] == .array([.string("reason")]))
    }

    @Test func formInputsReadWhatPeopleType() throws {
        let spec = FuelForms.add
        let form = FormFields(Array("vehicle=golf&at=2026-03-05T09%3A30&odometer_km=12+345&litres=40%2C5&price=70&currency=eur&full=off&missed=off&missed=on".utf8))
        #expect(throws: APIError.self) { try spec.request(form) }
        let fixed = FormFields(Array("vehicle=golf&at=2026-03-05T09%3A30&odometer_km=12345&litres=40%2C5&full=off&missed=off&missed=on".utf8))
        let fields = try spec.request(fixed)
        #expect(fields.first { $0.0 == "litres" }?.1 == .number(40.5))
        #expect(fields.first { $0.0 == "full" }?.1 == .bool(false) && fields.first { $0.0 == "missed" }?.1 == .bool(true))
        #expect(fields.first { $0.0 == "at" }?.1 == .string(ISO8601.format(try LocalTime.parse("2026-03-05T09:30"))))
        // An amendment carries only what differs from what the form showed.
        let record = FuelRecord(vehicle: "golf", at: ISO8601.parse("2026-03-05T08:30:12.5Z")!, odometerKm: 12345, litres: 40, price: 70, currency: "EUR")
        var shown = FuelForms.amend.values(of: record.fields)
        shown["litres"] = "41"
        let posted = FormFields(Array(shown.map { "\($0.key)=\($0.value)" }.joined(separator: "&").utf8))
        #expect(try FuelForms.amend.changes(posted, from: record.fields).map(\.0) == ["litres"])
        #expect((try? LocalTime.parse("2026-02-30T10:00")) == nil && (try? LocalTime.parse("yesterday")) == nil)
    }
}
