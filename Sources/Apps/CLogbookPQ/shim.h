// SPDX-License-Identifier: MIT
// libpq (Debian libpq-dev) for LogbookPostgres, its only importer.
#ifndef CLOGBOOK_PQ_SHIM_H
#define CLOGBOOK_PQ_SHIM_H
#include <libpq-fe.h>

/* A notice processor that drops server notices ("relation already exists, skipping"):
   libpq's default prints them to stderr, which would clutter the journal of the unit. */
static void cpq_ignore_notice(void *arg, const char *message) { (void)arg; (void)message; }
static inline void cpq_silence_notices(PGconn *conn) { PQsetNoticeProcessor(conn, cpq_ignore_notice, NULL); }
#endif
