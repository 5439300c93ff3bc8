// SPDX-License-Identifier: MIT
internal import LogbookCore

/// The Live page's card of the trouble codes the car reports now: live.json's `obd[]`
/// `fault_codes` (each source's code, pending flag and SAE J2012 generic description), stored
/// codes first. Hidden while no source reports any; `app.js` redraws the list from each
/// live document.
struct FaultCodesCard {
    struct Code: Equatable {
        var code: String
        var pending: Bool
        var description: String?
        var vehicle: String?
    }

    var codes: [Code]

    /// The codes of every OBD source in `document`.
    init(document: JSONValue?) {
        var out: [Code] = []
        if case .array(let sources)? = document?["obd"] {
            for source in sources {
                guard case .array(let faults)? = source["fault_codes"] else { continue }
                for f in faults {
                    guard let code = f["code"]?.stringValue else { continue }
                    out.append(Code(code: code, pending: f["pending"]?.boolValue ?? false, description: f["description"]?.stringValue,
                                    vehicle: source["vehicle"]?.stringValue))
                }
            }
        }
        codes = out.sorted { ($0.pending ? 1 : 0, $0.code) < ($1.pending ? 1 : 0, $1.code) }
    }

    func render() -> String {
        var items = ""
        for c in codes {
            var notes: [String] = []
            if c.pending { notes.append("pending") }
            if let v = c.vehicle { notes.append(v) }
            let note = notes.isEmpty ? "" : " <span class=\"muted\">(\(HTML.escape(notes.joined(separator: " · "))))</span>"
            items += "<li><strong>\(HTML.escape(c.code))</strong> \(HTML.escape(c.description ?? "maker-specific code"))\(note)</li>"
        }
        return """
            <article class="card faults" data-show="faults"\(codes.isEmpty ? " hidden" : "")>
            <h2>Fault codes</h2><ul class="plain faults" data-field="faults">\(items)</ul>
            <p class="muted small">As the car reports them (stored first; pending: seen once, not confirmed).</p>
            </article>
            """
    }
}
