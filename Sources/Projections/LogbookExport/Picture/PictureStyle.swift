// SPDX-License-Identifier: MIT
/// The picture's CSS: one class per speed band (shorter than a colour on every line), and a
/// dark variant for readers in dark mode. Class names carry an `lb-` prefix because inside
/// an HTML page the SVG's style sheet applies to the whole page.
enum PictureStyle {
    static func write(_ out: ExportOutput) {
        out.text("<style>\n")
        out.text(".lb-bg{fill:#ffffff}.lb-map{fill:#f4f6f8}.lb-fg{fill:#111827}.lb-muted{fill:#5b6472}")
        out.text(".lb-grid{stroke:#dde3ea;stroke-width:1;fill:none}.lb-axis{stroke:#9aa4b2;stroke-width:1;fill:none}")
        out.text(".lb-panel{fill:#ffffff;fill-opacity:.88;stroke:#dde3ea}.lb-ink{stroke:#111827;fill:#111827}")
        out.text(".lb-route polyline{fill:none;stroke-width:4;stroke-linecap:round;stroke-linejoin:round}")
        out.text(".lb-chart polyline{fill:none;stroke-width:2.2;stroke-linejoin:round}")
        out.text(".lb-gap{stroke:#8a94a3;stroke-width:2;stroke-dasharray:5 5;fill:none}\n")
        for band in 0..<SpeedColor.bands {
            out.text(".lb-b\(band){stroke:\(SpeedColor.hex(band: band))}")
        }
        out.text("\n@media (prefers-color-scheme: dark){.lb-bg{fill:#0d1117}.lb-map{fill:#161b22}.lb-fg{fill:#e6edf3}")
        out.text(".lb-muted{fill:#9aa4b2}.lb-grid{stroke:#2a313c}.lb-axis{stroke:#5b6472}")
        out.text(".lb-panel{fill:#0d1117;stroke:#2a313c}.lb-ink{stroke:#e6edf3;fill:#e6edf3}}\n")
        out.text("</style>\n")
    }
}
