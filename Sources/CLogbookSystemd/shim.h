/* SPDX-License-Identifier: MIT
 * Swift-facing shim over libsystemd. The non-variadic sd_* calls import directly;
 * this header only gathers the includes and wraps what Swift cannot call.
 */
#ifndef CLOGBOOK_SYSTEMD_SHIM_H
#define CLOGBOOK_SYSTEMD_SHIM_H

#include <sys/uio.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

/* sd_journal_print() is variadic; Swift uses sd_journal_sendv, this is for last-resort text. */
static inline int csd_journal_print(int priority, const char *message) {
    return sd_journal_print(priority, "%s", message);
}

#endif
