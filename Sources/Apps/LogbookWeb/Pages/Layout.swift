// SPDX-License-Identifier: MIT
internal import HTTPTypes

/// The page frame: head, navigation, main. Mobile-first, dark or light as the phone prefers; no inline script (the
/// content security policy forbids it), the CSRF token travels in `data-csrf`.
package enum Layout {
    /// A navigation entry.
    package struct Tab: Sendable {
        package var path: String
        package var title: String
    }

    /// The tabs shown in the navigation bar.
    package static let tabs = [
        Tab(path: "/", title: "Live"),
        Tab(path: "/trips", title: "Trips"),
        Tab(path: "/dashboard", title: "Dashboard"),
        Tab(path: "/garage", title: "Garage"),
        Tab(path: "/report", title: "Report"),
        Tab(path: "/setup", title: "Setup"),
    ]

    /// A whole page.
    package static func page(
        title: String, active: String?, csrf: String, assets: Assets, units: String = "metric", signedIn: Bool = false,
        maps: Bool = false, body: String
    ) -> String {
        // A page with a map: Leaflet (from libjs-leaflet, /leaflet/) and map.js before app.js,
        // so the map follows the live page's first update.
        let mapHead =
            maps
            ? "<link rel=\"stylesheet\" href=\"/leaflet/leaflet.css\">\n<script src=\"/leaflet/leaflet.js\" defer></script>\n"
                + "<script src=\"\(assets.url("map.js"))\" defer></script>\n" : ""
        var nav = ""
        for tab in tabs {
            let on = tab.path == active ? " aria-current=\"page\"" : ""
            nav += "<a href=\"\(tab.path)\"\(on)>\(HTML.escape(tab.title))</a>"
        }
        let logout =
            signedIn
            ? "<form method=\"post\" action=\"/logout\" class=\"logout\"><input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\">"
                + "<button type=\"submit\" class=\"link\">Log out</button></form>" : ""
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width,initial-scale=1,viewport-fit=cover">
            <meta name="color-scheme" content="dark light">
            <meta name="theme-color" content="#0d1117" media="(prefers-color-scheme: dark)">
            <meta name="theme-color" content="#f6f8fa" media="(prefers-color-scheme: light)">
            <title>\(HTML.escape(title)) · Logbook</title>
            <link rel="stylesheet" href="\(assets.url("app.css"))">
            <link rel="icon" href="\(assets.url("icon.svg"))" type="image/svg+xml">
            <link rel="manifest" href="/manifest.webmanifest">
            \(mapHead)<script src="\(assets.url("app.js"))" defer></script>
            </head>
            <body data-csrf="\(HTML.escape(csrf))" data-units="\(HTML.escape(units))">
            <header class="top"><nav>\(nav)</nav>\(logout)</header>
            <main>
            \(body)
            </main>
            </body>
            </html>

            """
    }

    /// A page for a refused request (non-API paths).
    package static func errorPage(_ error: APIError) -> String {
        page(
            title: "Error \(error.status.code)", active: nil, csrf: "", assets: Assets.shared,
            body: """
                <section class="card error"><h1>\(error.status.code) \(HTML.escape(error.status.reasonPhrase))</h1>
                <p>\(HTML.escape(error.message))</p><p><a href="/">Back to the live page</a></p></section>
                """)
    }
}
