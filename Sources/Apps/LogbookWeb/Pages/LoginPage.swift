// SPDX-License-Identifier: MIT

/// The password form.
enum LoginPage {
    static func render(next: String, error: String?) -> String {
        let problem = error.map { "<p class=\"notice bad\" role=\"alert\">\(HTML.escape($0))</p>" } ?? ""
        return Layout.page(
            title: "Log in", active: nil, csrf: "", assets: Assets.shared,
            body: """
                <section class="card narrow">
                <h1>Logbook</h1>
                \(problem)
                <form method="post" action="/login" class="stack">
                <input type="hidden" name="next" value="\(HTML.escape(next))">
                <label for="password">Password</label>
                <input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
                <button type="submit" class="primary">Log in</button>
                </form>
                </section>
                """)
    }
}
