#!/usr/bin/python3
"""check.py MODE: small JSON checks for systemd-e2e.sh; prints "ok <detail>" or "fail <detail>".
  trip     stdin = `logbook status --json`: "trip" non-null with start_reason "service"
  fixes    stdin = `logbook status --json`: gps.fixes > 0
  journal  stdin = `journalctl -u logbookd -o json`: TRIP_ID present in the daemon's entries
  recovered stdin = status JSON after a watchdog restart: last_trip ended with reason recovered"""
import json, sys

mode = sys.argv[1]
if mode == "recovered":
    # After a watchdog abort, journal recovery must close the trip that was open (reason
    # "recovered"). Evidence, either: the restarted daemon's journald entry with
    # TRIPS_CLOSED_RECOVERED >= 1 (stdin = its `journalctl -o json` lines), or a status JSON
    # whose last_trip ended with "recovered".
    seen = []
    for line in sys.stdin:
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if "TRIPS_CLOSED_RECOVERED" in e:
            # a count ("1") or the list of trip ids ("[1]", what logbookd logs today)
            v = str(e["TRIPS_CLOSED_RECOVERED"]).strip()
            seen.append("%s: TRIPS_CLOSED_RECOVERED=%s" % (e.get("MESSAGE"), v))
            ids = [x.strip() for x in v.strip("[]").split(",") if x.strip()]
            if (v.isdigit() and int(v) >= 1) or (v.startswith("[") and ids):
                print("ok " + seen[-1]); sys.exit()
        lt = e.get("last_trip") if isinstance(e, dict) else None
        if isinstance(lt, dict) and lt.get("end_reason") == "recovered":
            print("ok trip %s closed with reason recovered" % lt.get("id")); sys.exit()
    print("fail no closed-recovered trip seen (%s)" % ("; ".join(seen) or "no TRIPS_CLOSED_RECOVERED field, no last_trip recovered"))
    sys.exit()
if mode in ("trip", "fixes"):
    try:
        st = json.loads(sys.stdin.read())
    except ValueError as e:
        print("fail status --json is not JSON (%s)" % e); sys.exit()
    if mode == "trip":
        t = st.get("trip")
        if not t:
            print("fail trip is %r (last_trip=%r)" % (t, st.get("last_trip")))
        elif t.get("start_reason") != "service":
            print("fail trip %s start_reason=%r, want 'service'" % (t.get("id"), t.get("start_reason")))
        else:
            print("ok trip %s start_reason=service" % t.get("id"))
    else:
        g = st.get("gps") or {}
        n = g.get("fixes", 0)
        print(("ok" if isinstance(n, int) and n > 0 else "fail") + " gps.connected=%s mode=%s fixes=%s" % (g.get("connected"), g.get("mode"), n))
    sys.exit()

# journal: systemd's own entries about the unit carry no _TRANSPORT=journal from the daemon
# itself; look at what the daemon sent with the native protocol (structured fields).
STD = {"MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "SYSLOG_FACILITY", "SYSLOG_PID", "SYSLOG_TIMESTAMP",
       "CODE_FILE", "CODE_LINE", "CODE_FUNC", "MESSAGE_ID", "ERRNO", "TID", "INVOCATION_ID", "UNIT"}
native, trip_ids, own = 0, set(), set()
for line in sys.stdin:
    try:
        e = json.loads(line)
    except ValueError:
        continue
    # _PID 1 entries are systemd's own messages about the unit (JOB_*, UNIT_RESULT, ...).
    if e.get("_TRANSPORT") != "journal" or e.get("_PID") == "1":
        continue
    native += 1
    own |= {k for k in e if not k.startswith("_") and not k.startswith("__") and k not in STD}
    if "TRIP_ID" in e:
        trip_ids.add(str(e["TRIP_ID"]))
fields = ",".join(sorted(own)) or "none"
if trip_ids:
    print("ok TRIP_ID=%s in %d native entries; daemon fields: %s" % ("/".join(sorted(trip_ids)), native, fields))
else:
    print("fail no TRIP_ID in %d native-protocol entries; daemon fields: %s" % (native, fields))
