/* SPDX-License-Identifier: MIT
 * The POSIX and Linux calls Swift's Glibc module does not export, for LogbookPOSIX alone:
 * eventfd(2), naming the calling thread, a terminal's width, and malloc's arena limit.
 */
#ifndef CLOGBOOK_POSIX_SHIM_H
#define CLOGBOOK_POSIX_SHIM_H

#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/ioctl.h>
#include <malloc.h>

/* Names the calling thread as ps -L and top -H show it (at most 15 bytes are kept).
 * pthread_setname_np needs _GNU_SOURCE, which the Glibc module is not built with, and prctl is
 * variadic: PR_SET_NAME on the calling thread is what pthread_setname_np(pthread_self()) does. */
static inline int clp_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

/* The columns of the terminal on `fd` (TIOCGWINSZ), or -1 when `fd` is no terminal or it
 * reports no size: ioctl(2) is variadic, which Swift does not import. */
static inline int clp_terminal_columns(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_col == 0) return -1;
    return (int)size.ws_col;
}

/* At most `count` malloc arenas (mallopt(M_ARENA_MAX)); 1 on success. <malloc.h> is not in
 * the Glibc module. */
static inline int clp_limit_malloc_arenas(int count) {
    return mallopt(M_ARENA_MAX, count);
}

#endif
