/* SPDX-License-Identifier: MIT
 * The POSIX and Linux calls Swift's Glibc module does not export, for LogbookPOSIX alone:
 * eventfd(2), and naming the calling thread.
 */
#ifndef CLOGBOOK_POSIX_SHIM_H
#define CLOGBOOK_POSIX_SHIM_H

#include <sys/eventfd.h>
#include <sys/prctl.h>

/* Names the calling thread as ps -L and top -H show it (at most 15 bytes are kept).
 * pthread_setname_np needs _GNU_SOURCE, which the Glibc module is not built with, and prctl is
 * variadic: PR_SET_NAME on the calling thread is what pthread_setname_np(pthread_self()) does. */
static inline int clp_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

#endif
