/* SPDX-License-Identifier: MIT
 * Swift-facing shim over libgpiod, v1 API only (Debian bookworm: libgpiod-dev 1.6.3).
 * The gpiod_* calls import directly; this header guards the API version and wraps what Swift
 * cannot call conveniently (timespec timeouts, thread naming, errno).
 */
#ifndef CLOGBOOK_GPIOD_SHIM_H
#define CLOGBOOK_GPIOD_SHIM_H

#include <errno.h>
#include <stdint.h>
#include <time.h>
#include <gpiod.h>

/* libgpiod 2.x rewrote the API (gpiod_chip_request_lines, line settings/configs) and dropped
 * gpiod_line_*; v1's gpiod.h is recognised by GPIOD_LINE_BULK_MAX_LINES, which v2 lacks. */
#if defined(GPIOD_API_VERSION) || !defined(GPIOD_LINE_BULK_MAX_LINES)
#error "CLogbookGPIOD supports only the libgpiod v1 API (1.x, e.g. Debian bookworm's libgpiod-dev 1.6.3); libgpiod v2 headers were found"
#endif

/* Opens a chip by name ("gpiochip0"), number, label or path ("/dev/gpiochip0").
 * Returns NULL with errno set on failure. */
static inline struct gpiod_chip *cgpiod_chip_open(const char *descr) {
    return gpiod_chip_open_lookup(descr);
}

/* Waits up to timeout_ms for an edge event on a line requested for events.
 * Returns 1 (event pending), 0 (timeout) or -errno. */
static inline int cgpiod_line_event_wait_ms(struct gpiod_line *line, int64_t timeout_ms) {
    if (timeout_ms < 0) timeout_ms = 0;
    struct timespec ts = { .tv_sec = (time_t)(timeout_ms / 1000), .tv_nsec = (long)(timeout_ms % 1000) * 1000000L };
    int r = gpiod_line_event_wait(line, &ts);
    return r < 0 ? -errno : r;
}

/* Reads one pending event. Returns 1 for a rising edge, 0 for a falling edge, or -errno. */
static inline int cgpiod_line_event_read_edge(struct gpiod_line *line) {
    struct gpiod_line_event event;
    if (gpiod_line_event_read(line, &event) < 0) return -errno;
    return event.event_type == GPIOD_LINE_EVENT_RISING_EDGE ? 1 : 0;
}

/* The current physical level (1 high, 0 low) or -errno. The line is requested without
 * GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW, so this is the raw level; inversion is the debouncer's. */
static inline int cgpiod_line_get_value(struct gpiod_line *line) {
    int r = gpiod_line_get_value(line);
    return r < 0 ? -errno : r;
}

/* Requests both-edge events; returns 0 or -errno (EBUSY: another consumer holds the line). */
static inline int cgpiod_line_request_both_edges(struct gpiod_line *line, const char *consumer) {
    return gpiod_line_request_both_edges_events(line, consumer) < 0 ? -errno : 0;
}

/* The current errno (after a NULL return from gpiod_chip_open_lookup / gpiod_chip_get_line). */
static inline int cgpiod_errno(void) { return errno; }

#endif
