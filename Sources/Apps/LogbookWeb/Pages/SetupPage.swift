// SPDX-License-Identifier: MIT
internal import Dispatch
internal import Hummingbird
internal import LogbookDoctor
internal import LogbookGarage
internal import LogbookSettings

/// The Setup check page (`/setup`): the checks of `logbook doctor` (``DoctorChecks``, the one
/// implementation), each with what to do when it fails. The Live page links it prominently
/// while a check that needs no gpsd fails (``quickProblems``).
struct SetupPage {
    var checks: [DoctorCheck]
    var configFile: String

    func render() -> String {
        let failed = checks.filter { !$0.ok }.count
        let summary =
            failed == 0
            ? "<p class=\"notice good\" id=\"setup-summary\" role=\"status\">All \(checks.count) checks passed: the logbook records.</p>"
            : "<p class=\"notice bad\" id=\"setup-summary\" role=\"alert\">\(failed) of \(checks.count) checks failed: each says what to do.</p>"
        var items = ""
        for c in checks {
            let fix = c.ok ? "" : "<p class=\"fix small\"><strong>What to do:</strong> \(HTML.escape(c.fix ?? ""))</p>"
            items += """
                <li class="check-item \(c.ok ? "ok" : "fail")" data-check="\(HTML.escape(c.name))" data-ok="\(c.ok)">\
                <span class="tag \(c.ok ? "good" : "bad")">\(c.ok ? "OK" : "Fails")</span> <strong>\(HTML.escape(Self.title(c.name)))</strong>\
                <p class="small">\(HTML.escape(c.detail))</p>\(fix)</li>

                """
        }
        return """
            <section class="card">
            <h1>Setup check</h1>
            <p class="muted small">What a first run needs, as <code>logbook doctor</code> checks it, for \(HTML.escape(configFile)).</p>
            \(summary)
            <ul class="plain checks" id="setup-checks">
            \(items)</ul>
            <p><a href="/setup">Check again</a></p>
            </section>
            """
    }

    /// A check's name as a heading.
    static func title(_ name: String) -> String {
        switch name {
        case "gpsd": "GPS service (gpsd)"
        case "gps fix": "GPS fix"
        case "daemon": "Logbook service (logbookd)"
        case "sources": "Trip sources"
        case "vehicle": "Vehicles"
        case "permissions": "Permissions"
        case "clock": "Clock"
        case "disk": "Disk space"
        default: name
        }
    }

    /// The Live page's banner: the failing checks that need neither gpsd nor the socket
    /// (vehicles, sources), linking the Setup check page.
    static func banner(_ problems: [DoctorCheck]) -> String {
        guard !problems.isEmpty else { return "" }
        let what = problems.map { HTML.escape($0.detail) }.joined(separator: "; ")
        return "<p class=\"notice bad\" id=\"setup-banner\" role=\"alert\">The logbook is not set up to record: \(what). "
            + "<a href=\"/setup\">Setup check</a></p>"
    }
}

extension WebApp {
    /// How long the Setup check waits for gpsd's fix (the CLI's default is 5 s; a page should answer sooner).
    static let setupFixWait = 3.0

    func addSetupPage(to router: Router<WebContext>) {
        router.get("/setup") { _, context -> Response in
            let checks = await setupChecks()
            let page = SetupPage(checks: checks, configFile: configuration.settings.configFile ?? "/etc/logbook/logbookd.toml")
            return self.page("Setup check", active: "/setup", context: context, body: page.render())
        }
    }

    private var doctor: DoctorChecks {
        let c = configuration
        return DoctorChecks(settings: c.settings, configFile: c.settings.configFile ?? "/etc/logbook/logbookd.toml", indexPath: c.indexPath)
    }

    /// Every check of `logbook doctor`; gpsd, the socket and the disk block, so they run on a
    /// Dispatch thread, never on the concurrency pool.
    func setupChecks() async -> [DoctorCheck] {
        let doctor = self.doctor, recorded = await registryNow().all.map(\.id)
        return await withCheckedContinuation { done in
            DispatchQueue.global().async {
                let probe = GPSDProbe.run(doctor.settings.gpsd, wait: Self.setupFixWait)
                done.resume(returning: doctor.all(probe: probe, waited: Self.setupFixWait, recordedVehicles: recorded, minimumFreeMiB: 100))
            }
        }
    }

    /// The checks the Live page can afford on every load (configuration and registry only).
    func quickSetupProblems() async -> [DoctorCheck] {
        let recorded = await registryNow().all.map(\.id)
        return [doctor.vehicles(recorded: recorded), doctor.sources()].filter { !$0.ok }
    }
}
