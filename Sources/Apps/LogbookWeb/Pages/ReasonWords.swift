// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookExport

/// Why a trip started or ended, in words for a screen (``TripText/reasonWords(_:)``, the one
/// table): "Power supply (ACAD)" for `power:ACAD`.
enum ReasonWords {
    static func text(_ raw: String) -> String { TripText.reasonWords(raw) }

    /// The words by kind as a JSON data block (not script: the content security policy allows
    /// it), for `app.js` to word a reason that arrives with a live update.
    static var dataBlock: String {
        let table = JSONValue.object(TripText.reasonKinds.map { ($0, .string(TripText.reasonWords($0))) })
        // A data block's text is not entity-decoded: only "<" needs care (no "</script>").
        let json = table.serialized.replacing("<", with: "\\u003c")
        return "<script type=\"application/json\" id=\"reason-words\">\(json)</script>"
    }
}
