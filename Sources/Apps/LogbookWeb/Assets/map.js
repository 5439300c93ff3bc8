// Logbook web app: the street maps (Leaflet from Debian's libjs-leaflet, served by the Pi).
// Trip page: the speed-coloured route, start and end flags, a speed chart that marks its moment
// on the map. Live page: the car and the trip so far. Stations page: every station's pin.
// Tiles come from [web] map_tiles; when none load within 2 s the map says tiles are offline
// and shows the route on a plain background (nothing waits on them).
"use strict";
(function () {
  const imperial = document.body.dataset.units === "imperial";
  const maps = document.querySelectorAll(".map");
  if (!maps.length) return;

  function status(el, text) {
    const p = el.querySelector(".map-status");
    if (!p) return;
    p.textContent = text;
    p.hidden = !text;
  }
  if (!window.L) {
    maps.forEach((el) => status(el, "No map: Leaflet is not installed on the Pi (libjs-leaflet)."));
    return;
  }

  function makeMap(el) {
    const map = L.map(el);
    el.classList.add("plain");
    L.control.scale({ imperial: imperial, metric: !imperial }).addTo(map);
    const template = el.dataset.tiles;
    if (!template) {
      el.dataset.tilesState = "off";
      return map;
    }
    el.dataset.tilesState = "loading";
    let loaded = 0;
    const offline = () => {
      if (loaded || el.dataset.tilesState === "offline") return;
      el.dataset.tilesState = "offline";
      el.dataset.offlineAt = String(Math.round(performance.now()));
      status(el, "Tiles offline: the route on a plain background.");
    };
    const layer = L.tileLayer(template, { maxZoom: 19, attribution: "" });
    if (el.dataset.attribution) map.attributionControl.addAttribution(escapeText(el.dataset.attribution));
    layer.on("tileload", () => {
      loaded += 1;
      el.dataset.tilesLoaded = String(loaded);
      if (el.dataset.tilesState !== "online") { el.dataset.tilesState = "online"; status(el, ""); }
    });
    layer.on("tileerror", offline);
    setTimeout(offline, 2000);
    layer.addTo(map);
    return map;
  }
  function escapeText(s) {
    const d = document.createElement("div");
    d.textContent = s;
    return d.innerHTML;
  }
  function flag(kind, text) {
    return L.divIcon({ className: "flag flag-" + kind, html: text, iconSize: [26, 26], iconAnchor: [13, 13] });
  }
  function speedText(mps) { return Math.round(imperial ? mps * 2.236936 : mps * 3.6) + (imperial ? " mph" : " km/h"); }

  // ── Trip page ──
  const tripMap = document.getElementById("trip-map");
  if (tripMap) {
    const map = makeMap(tripMap);
    fetch(tripMap.dataset.track, { credentials: "same-origin" }).then((r) => r.json()).then((track) => {
      const pts = track.points || [];
      if (!pts.length) { status(tripMap, "No positions recorded."); return; }
      const colors = track.colors;
      let run = [], band = pts[0][4], segments = 0;
      const used = new Set();
      const flush = () => {
        if (run.length > 1) {
          L.polyline(run, { color: colors[band], weight: 5, opacity: 0.95, className: "route" }).addTo(map);
          segments += 1;
          used.add(colors[band]);
        }
      };
      for (const p of pts) {
        run.push([p[1], p[2]]);
        if (p[4] !== band) { flush(); run = [[p[1], p[2]]]; band = p[4]; }
      }
      flush();
      const first = pts[0], last = pts[pts.length - 1];
      L.marker([first[1], first[2]], { icon: flag("start", "S"), title: "Start" }).addTo(map);
      L.marker([last[1], last[2]], { icon: flag("end", "E"), title: "End" }).addTo(map);
      const bounds = L.latLngBounds(pts.map((p) => [p[1], p[2]]));
      map.fitBounds(bounds, { padding: [24, 24] });
      tripMap.dataset.bounds = [bounds.getSouth(), bounds.getWest(), bounds.getNorth(), bounds.getEast()].join(",");
      tripMap.dataset.segments = String(segments);
      tripMap.dataset.colors = Array.from(used).join(" ");
      tripMap.dataset.zoom = String(map.getZoom());
      tripMap.dataset.drawn = String(Math.round(performance.now()));
      legend(track);
      chart(map, track);
    }).catch((e) => status(tripMap, "The route did not load: " + e));
  }

  function legend(track) {
    const el = document.getElementById("trip-legend");
    if (!el) return;
    const bar = document.createElement("span");
    bar.className = "legend-bar";
    track.colors.forEach((c) => { const s = document.createElement("i"); s.style.background = c; bar.append(s); });
    el.replaceChildren("0 ", bar, " " + speedText(track.max_speed_mps));
  }

  // The speed over time; hovering or tapping a moment marks it on the map.
  function chart(map, track) {
    const el = document.getElementById("trip-chart");
    if (!el) return;
    const pts = track.points, ns = "http://www.w3.org/2000/svg";
    const w = 600, h = 120, span = Math.max(pts[pts.length - 1][0], 1), top = Math.max(track.max_speed_mps, 1);
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 " + w + " " + h);
    svg.setAttribute("preserveAspectRatio", "none");
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", pts.map((p) => (p[0] / span * w).toFixed(1) + "," + (h - p[3] / top * (h - 4)).toFixed(1)).join(" "));
    line.setAttribute("class", "chart-line");
    const cursor = document.createElementNS(ns, "line");
    cursor.setAttribute("y1", "0"); cursor.setAttribute("y2", String(h)); cursor.setAttribute("class", "chart-cursor");
    svg.append(line, cursor);
    el.replaceChildren(svg);
    const mark = L.circleMarker([pts[0][1], pts[0][2]], { radius: 8, color: "#fff", weight: 3, fillColor: "#58a6ff", fillOpacity: 1 });
    const readout = document.getElementById("trip-chart-readout");
    function at(clientX) {
      const r = svg.getBoundingClientRect();
      const t = Math.min(Math.max((clientX - r.left) / r.width, 0), 1) * span;
      let lo = 0, hi = pts.length - 1;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (pts[mid][0] < t) lo = mid + 1; else hi = mid; }
      const p = pts[lo];
      cursor.setAttribute("x1", String(p[0] / span * w)); cursor.setAttribute("x2", String(p[0] / span * w));
      mark.setLatLng([p[1], p[2]]);
      if (!map.hasLayer(mark)) mark.addTo(map);
      el.dataset.markedLat = String(p[1]); el.dataset.markedLon = String(p[2]); el.dataset.markedIndex = String(lo);
      if (readout) readout.textContent = speedText(p[3]) + " at +" + Math.round(p[0] / 60) + " min";
    }
    svg.addEventListener("pointermove", (e) => at(e.clientX));
    svg.addEventListener("pointerdown", (e) => at(e.clientX));
  }

  // ── Live page: the car and the trip so far, following the 2 s updates ──
  const liveMap = document.getElementById("live-map");
  if (liveMap) {
    const map = makeMap(liveMap);
    map.setView([0, 0], 2);
    let car = null, trail = null, tripId = null, updates = 0;
    document.addEventListener("logbook:live", (e) => {
      const doc = e.detail, gps = doc.gps || {};
      if (gps.lat == null || gps.lon == null) return;
      const here = [gps.lat, gps.lon], id = doc.trip ? String(doc.trip.id) : null;
      if (!car) {
        car = L.circleMarker(here, { radius: 9, color: "#fff", weight: 3, fillColor: "#58a6ff", fillOpacity: 1 }).addTo(map);
        map.setView(here, 15);
      } else {
        car.setLatLng(here);
        if (!map.getBounds().pad(-0.2).contains(here)) map.panTo(here);
      }
      if (id !== tripId) {
        if (trail) trail.remove();
        trail = id ? L.polyline([], { color: "#58a6ff", weight: 4 }).addTo(map) : null;
        tripId = id;
        // The trip so far: what was recorded before this page opened, then each update.
        // (A trip just started may not be in the index yet: asked again every 2 s, 10 times.)
        const mine = trail;
        const seed = (tries) => {
          fetch("/api/trips/" + id + "/track", { credentials: "same-origin" }).then((r) => {
            if (!r.ok) throw new Error(r.status);
            return r.json();
          }).then((track) => {
            if (mine !== trail) return;
            const before = (track.points || []).map((p) => [p[1], p[2]]);
            mine.setLatLngs(before.concat(mine.getLatLngs()));
            liveMap.dataset.trailPoints = String(mine.getLatLngs().length);
          }).catch(() => { if (tries > 1 && mine === trail) setTimeout(() => seed(tries - 1), 2000); });
        };
        if (id) seed(10);
      }
      if (trail) { trail.addLatLng(here); liveMap.dataset.trailPoints = String(trail.getLatLngs().length); }
      updates += 1;
      liveMap.dataset.lat = String(gps.lat); liveMap.dataset.lon = String(gps.lon); liveMap.dataset.updates = String(updates);
    });
  }

  // ── Stations page: a pin per station, the map framing them all ──
  const stationsMap = document.getElementById("stations-map");
  if (stationsMap) {
    const map = makeMap(stationsMap);
    fetch(stationsMap.dataset.stations, { credentials: "same-origin" }).then((r) => r.json()).then((doc) => {
      const stations = doc.stations || [];
      if (!stations.length) { map.setView([0, 0], 2); status(stationsMap, "No fill-up with a position yet."); return; }
      stations.forEach((s, i) => {
        const popup = document.createElement("div");
        const name = document.createElement("strong");
        name.textContent = s.name || "(unnamed)";
        popup.append(name, document.createElement("br"), s.visits + " visits");
        const links = document.getElementById("station-links-" + i);
        if (links) popup.append(document.createElement("br"), links.cloneNode(true));
        L.marker([s.lat, s.lon], { title: s.name || "(unnamed)" }).bindPopup(popup).addTo(map);
      });
      map.fitBounds(L.latLngBounds(stations.map((s) => [s.lat, s.lon])), { padding: [30, 30], maxZoom: 16 });
      stationsMap.dataset.pins = String(stations.length);
    }).catch((e) => status(stationsMap, "The stations did not load: " + e));
  }
})();
