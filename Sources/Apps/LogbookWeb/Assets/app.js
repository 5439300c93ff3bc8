// Logbook web app: live updates for the Live page, local times everywhere, and the phone's
// position for the forms that take one.
// Served by the Pi (no CDN). Formats numbers with the same rules as the server (Format.swift).
"use strict";
(function () {
  const imperial = document.body.dataset.units === "imperial";

  function fixed(v, digits) {
    if (!isFinite(v)) return "–";
    const scale = Math.pow(10, digits);
    const n = Math.round(Math.abs(v) * scale);
    const sign = v < 0 && n !== 0 ? "-" : "";
    if (digits === 0) return sign + n;
    const frac = String(n % scale).padStart(digits, "0");
    return sign + Math.floor(n / scale) + "." + frac;
  }
  function distance(m) {
    const v = imperial ? m / 1609.344 : m / 1000;
    return [fixed(v, v < 100 ? 2 : 1), imperial ? "mi" : "km"];
  }
  function speed(mps) { return [fixed(imperial ? mps * 2.236936 : mps * 3.6, 0), imperial ? "mph" : "km/h"]; }
  function speedText(mps) { return speed(mps).join(" "); }
  function duration(s) {
    s = Math.max(0, Math.floor(s));
    return Math.floor(s / 3600) + ":" + String(Math.floor(s / 60) % 60).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
  }
  function durationWords(s) {
    s = Math.max(0, Math.round(s));
    if (s < 60) return s + " s";
    if (s < 3600) return Math.floor(s / 60) + " min";
    return Math.floor(s / 3600) + " h " + (Math.floor(s / 60) % 60) + " min";
  }
  function localTime(el) {
    const iso = el.getAttribute("datetime");
    if (!iso) return;
    const d = new Date(iso);
    if (isNaN(d)) return;
    const opts = el.dataset.format === "time" ? { hour: "2-digit", minute: "2-digit" }
      : { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" };
    el.textContent = d.toLocaleString(undefined, opts);
  }
  document.querySelectorAll("time[datetime]").forEach(localTime);

  // Position pickers: on a secure page (HTTPS, or the Pi itself) whose browser can locate
  // itself, "Use this phone's position" fills the form's latitude and longitude. Without
  // script the button stays hidden; the car's last position still works (a checkbox).
  document.querySelectorAll("button.locate").forEach((button) => {
    if (!window.isSecureContext || !navigator.geolocation) return;
    const prefix = button.dataset.prefix;
    const lat = document.getElementById(prefix + "-lat"), lon = document.getElementById(prefix + "-lon");
    const status = document.getElementById(prefix + "-locate-status");
    if (!lat || !lon) return;
    button.hidden = false;
    button.addEventListener("click", () => {
      if (status) status.textContent = "Locating…";
      navigator.geolocation.getCurrentPosition((p) => {
        lat.value = p.coords.latitude.toFixed(6);
        lon.value = p.coords.longitude.toFixed(6);
        const car = document.getElementById(prefix + "-car");
        if (car) car.checked = false;
        if (status) status.textContent = "This phone, ±" + Math.round(p.coords.accuracy) + " m";
      }, (e) => {
        if (status) status.textContent = "No position: " + e.message;
      }, { enableHighAccuracy: true, timeout: 20000, maximumAge: 60000 });
    });
  });

  // Share on the trip page: the Web Share API with the summary and the GPX file where the
  // phone can share files; else the summary to the clipboard and the GPX as a download.
  const share = document.getElementById("share");
  if (share) {
    share.hidden = false;
    share.addEventListener("click", async () => {
      const text = document.getElementById("summary").textContent;
      const said = document.getElementById("share-status");
      try {
        const blob = await (await fetch(share.dataset.gpx, { credentials: "same-origin" })).blob();
        const file = new File([blob], share.dataset.name, { type: "application/gpx+xml" });
        if (navigator.canShare && navigator.canShare({ files: [file] })) {
          await navigator.share({ text: text, files: [file] });
          said.textContent = "Shared.";
          return;
        }
        let copied = false;
        if (navigator.clipboard && window.isSecureContext) {
          try { await navigator.clipboard.writeText(text); copied = true; } catch (e) { copied = false; }
        }
        if (!copied) {
          const area = document.createElement("textarea");
          area.value = text;
          document.body.append(area);
          area.select();
          copied = document.execCommand("copy");
          area.remove();
        }
        const a = document.createElement("a");
        a.href = URL.createObjectURL(blob);
        a.download = share.dataset.name;
        document.body.append(a);
        a.click();
        a.remove();
        said.textContent = (copied ? "Summary copied; " : "") + "GPX downloaded.";
      } catch (e) {
        said.textContent = "Not shared: " + e.message;
      }
    });
  }

  // Stop asks first: the confirmation in place of the button (without script the server
  // asks on the next page, /?confirm=stop).
  const stopForm = document.getElementById("stop-form"), stopAsk = document.getElementById("stop-confirm");
  if (stopForm && stopAsk) {
    stopForm.addEventListener("submit", (e) => {
      e.preventDefault();
      stopForm.hidden = true; stopAsk.hidden = false;
      document.getElementById("stop-yes").focus();
    });
    document.getElementById("stop-no").addEventListener("click", (e) => {
      e.preventDefault();
      stopAsk.hidden = true; stopForm.hidden = false;
      document.getElementById("stop").focus();
    });
  }

  const live = document.getElementById("live");
  if (!live || !window.EventSource) return;
  const field = (name) => live.querySelector('[data-field="' + name + '"]');
  const set = (name, text) => { const el = field(name); if (el && el.textContent !== text) el.textContent = text; };
  const show = (name, on) => live.querySelectorAll('[data-show="' + name + '"]').forEach((el) => { el.hidden = !on; });

  function gpsText(gps) {
    if (!gps || !gps.connected) return "gpsd not connected";
    if (!(gps.mode >= 2)) return "no fix";
    const parts = [gps.mode + "D fix"];
    if (gps.satellites_used != null) parts.push(gps.satellites_used + " sat");
    if (gps.eph_m != null) parts.push("±" + fixed(gps.eph_m, 0) + " m");
    return parts.join(" · ");
  }
  // Reasons in words, from the server's one table (the reason-words data block).
  const reasonTable = (() => {
    const el = document.getElementById("reason-words");
    try { return el ? JSON.parse(el.textContent) : {}; } catch (e) { return {}; }
  })();
  function reasonWords(raw) {
    if (!raw) return "";
    const i = raw.indexOf(":"), kind = i < 0 ? raw : raw.slice(0, i), words = reasonTable[kind];
    if (!words) return raw;
    return words + (i < 0 || kind === "motion" ? "" : " (" + raw.slice(i + 1) + ")");
  }
  function lastText(t) {
    return "Trip " + t.id + ": " + distance(t.distance_m || 0).join(" ") + " in " + durationWords(t.duration_s || 0) +
      ", ended (" + (t.end_reason ? reasonWords(t.end_reason) : "?") + ")";
  }

  // The trouble codes of every OBD source, stored first (FaultCodesCard on the server).
  function renderFaults(doc) {
    const list = field("faults");
    if (!list) return;
    const codes = [];
    (doc.obd || []).forEach((s) => (s.fault_codes || []).forEach((f) => codes.push([f, s.vehicle])));
    codes.sort((a, b) => (a[0].pending - b[0].pending) || (a[0].code < b[0].code ? -1 : a[0].code > b[0].code ? 1 : 0));
    const key = JSON.stringify(codes);
    if (list.dataset.key === key) return;
    list.dataset.key = key;
    list.replaceChildren(...codes.map(([f, vehicle]) => {
      const li = document.createElement("li"), code = document.createElement("strong");
      code.textContent = f.code;
      li.append(code, " " + (f.description || "maker-specific code"));
      const notes = (f.pending ? ["pending"] : []).concat(vehicle ? [vehicle] : []);
      if (notes.length) {
        const note = document.createElement("span");
        note.className = "muted";
        note.textContent = "(" + notes.join(" · ") + ")";
        li.append(" ", note);
      }
      return li;
    }));
    show("faults", codes.length > 0);
  }

  // Staleness: logbookd replaces live.json (and sends a document with a new `seq`) at least
  // every 2 s. A document that repeats the last seq is not news (the web app re-reads a stale
  // live.json while the daemon is gone), so the clock runs from the last new seq, and from
  // the page's load until the first one arrives.
  const staleAfter = 3500;  // 2 s between writes, and room for a busy Pi
  let lastNew = Date.now(), lastSeq = null, connected = true;
  function render(doc) {
    if (doc.seq !== lastSeq || doc.updated_at !== live.dataset.updated) {
      lastSeq = doc.seq; live.dataset.updated = doc.updated_at || "";
      lastNew = Date.now();
    }
    document.dispatchEvent(new CustomEvent("logbook:live", { detail: doc }));  // map.js follows the car
    const trip = doc.trip, last = doc.last_trip;
    const state = trip ? "trip" : "idle";
    live.dataset.state = state;
    set("status", trip ? "Recording" : "Idle");
    set("gps", gpsText(doc.gps));
    show("trip", !!trip); show("idle", !trip); show("offline", false); show("last", !!last);
    if (trip) {
      const v = trip.vehicle;
      set("vehicle", v ? (v.name || v.id) : "Trip");
      const started = field("started");
      if (started && started.getAttribute("datetime") !== trip.started_at && trip.started_at) {
        started.setAttribute("datetime", trip.started_at); started.dataset.format = "time"; localTime(started);
      }
      set("reason", reasonWords(trip.start_reason));
      const d = distance(trip.distance_m || 0), s = speed(trip.speed_mps || 0);
      set("distance", d[0]); set("distance-unit", d[1]);
      set("speed", s[0]); set("speed-unit", s[1]);
      set("duration", duration(trip.duration_s || 0));
      set("avg", speedText(trip.avg_speed_mps || 0));
      set("max", speedText(trip.max_speed_mps || 0));
      set("points", String(trip.points || 0));
    }
    if (last) set("last", lastText(last));
    renderFaults(doc);
  }

  const stale = document.getElementById("stale");
  function checkStale() {
    const ms = Date.now() - lastNew, age = Math.round(ms / 1000);
    set("age", age <= 2 ? "just now" : age + " s ago");
    const old = ms > staleAfter || !connected;
    if (stale) {
      stale.hidden = !old;
      const text = connected ? age + " s" : age + " s (the connection to the web app is lost)";
      const el = stale.querySelector('[data-field="stale-age"]');
      if (el && el.textContent !== text) el.textContent = text;
    }
    if (old) {
      live.dataset.state = "offline";
      set("status", connected ? "No updates from logbookd" : "Not connected");
    }
  }
  const source = new EventSource("/api/live/events");
  source.addEventListener("live", (e) => {
    connected = true;
    try { render(JSON.parse(e.data)); } catch (err) { /* a torn document: wait for the next */ }
    checkStale();
  });
  source.addEventListener("open", () => { connected = true; });
  source.addEventListener("error", () => { connected = false; checkStale(); });
  setInterval(checkStale, 250);
})();
