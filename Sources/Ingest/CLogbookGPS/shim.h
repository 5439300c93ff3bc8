/* SPDX-License-Identifier: MIT
 * Swift-facing shim over libgps: what ClangImporter cannot import (variadic gps_send,
 * API-version differences) and a flat fix copy, so Swift never touches the 24 KB
 * gps_data_t layout, which changes between gpsd API versions (bookworm: API 11;
 * newer gpsd 12-14).
 */
#ifndef CLOGBOOK_GPS_SHIM_H
#define CLOGBOOK_GPS_SHIM_H

#include <gps.h>
#include <math.h>
#include <string.h>
#include <sys/eventfd.h> /* the reader thread's wake-up (GPSDSource.stop) */

#if GPSD_API_MAJOR_VERSION < 7
#error "libgps API 7 or newer is required (gpsd >= 3.18)"
#endif

/* Flat copy of the parts of a TPV report Logbook uses. NaN means "not available". */
typedef struct {
    long long time_sec;
    long time_nsec;
    int time_set;      /* TIME_SET was in the report */
    int latlon_set;    /* LATLON_SET was in the report */
    int mode;          /* MODE_NOT_SEEN 0, NO_FIX 1, 2D 2, 3D 3 */
    double latitude, longitude;
    double alt_hae, alt_msl;
    double speed, track, climb;
    double eph, epv, eps;
    int satellites_used;
} cgps_fix;

/* gps_send() is variadic, so Swift cannot call it. */
static inline int cgps_send(struct gps_data_t *gps, const char *command) {
    return gps_send(gps, "%s", command);
}

/* Clears the report mask before a read: libgps only ORs non-TPV classes into `set`. */
static inline int cgps_read(struct gps_data_t *gps, char *message, int length) {
    gps->set = 0;
    return gps_read(gps, message, length);
}

static inline int cgps_stream_watch_json(struct gps_data_t *gps) {
    return gps_stream(gps, WATCH_ENABLE | WATCH_JSON, NULL);
}

/* True when the last message read was a TPV report. */
static inline int cgps_message_is_tpv(const char *message) {
    return strstr(message, "\"class\":\"TPV\"") != NULL;
}

static inline int cgps_socket_fd(const struct gps_data_t *gps) { return (int)gps->gps_fd; }

static inline void cgps_copy_fix(const struct gps_data_t *gps, cgps_fix *out) {
    const struct gps_fix_t *f = &gps->fix;
    out->time_sec = (long long)f->time.tv_sec;
    out->time_nsec = (long)f->time.tv_nsec;
    out->time_set = (gps->set & TIME_SET) != 0;
    out->latlon_set = (gps->set & LATLON_SET) != 0;
    out->mode = f->mode;
    out->latitude = f->latitude;
    out->longitude = f->longitude;
    out->alt_hae = f->altHAE;
    out->alt_msl = f->altMSL;
    out->speed = f->speed;
    out->track = f->track;
    out->climb = f->climb;
    out->eph = f->eph;
    out->epv = f->epv;
    out->eps = f->eps;
    out->satellites_used = gps->satellites_used;
}

/* gps_errstr() of the errno gps_open() leaves (negative NL_* codes). */
static inline const char *cgps_error_text(int code) { return gps_errstr(code); }

#endif
