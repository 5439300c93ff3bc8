/* SPDX-License-Identifier: MIT
 * Swift-facing shim over libsystemd. The non-variadic sd_* calls import directly;
 * this header only gathers the includes and wraps what Swift cannot call.
 */
#ifndef CLOGBOOK_SYSTEMD_SHIM_H
#define CLOGBOOK_SYSTEMD_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <unistd.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-device.h>
#include <systemd/sd-event.h>
#include <systemd/sd-journal.h>

/* sd_journal_print() is variadic; Swift uses sd_journal_sendv, this is for last-resort text. */
static inline int csd_journal_print(int priority, const char *message) {
    return sd_journal_print(priority, "%s", message);
}

/* Names the calling thread (ps -L, top -H); prctl is variadic and pthread_setname_np needs
 * _GNU_SOURCE, which the Glibc module is not built with. */
static inline int csd_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

/* Opens the system bus (address == NULL; honours DBUS_SYSTEM_BUS_ADDRESS) or a bus daemon at
 * `address` (tests: a private dbus-daemon). Returns 0 or -errno; *ret is NULL on failure. */
static inline int csd_bus_open(const char *address, sd_bus **ret) {
    *ret = NULL;
    if (address == NULL) return sd_bus_open_system(ret);
    sd_bus *bus = NULL;
    int r = sd_bus_new(&bus);
    if (r < 0) return r;
    if ((r = sd_bus_set_address(bus, address)) < 0 ||
        (r = sd_bus_set_bus_client(bus, 1)) < 0 ||
        (r = sd_bus_start(bus)) < 0) {
        sd_bus_unref(bus);
        return r;
    }
    *ret = bus;
    return 0;
}

/* org.freedesktop.login1.Manager.Inhibit(what, who, why, mode) -> h, waiting at most
 * timeout_usec. sd_bus_message_append and sd_bus_message_read are variadic. The reply owns
 * its fd, so this returns an O_CLOEXEC dup (>= 3) the caller must close, or -errno with
 * *error filled in. */
static inline int csd_bus_login1_inhibit(sd_bus *bus, const char *what, const char *who,
                                         const char *why, const char *mode, uint64_t timeout_usec,
                                         sd_bus_error *error) {
    sd_bus_message *m = NULL, *reply = NULL;
    int fd = -1;
    int r = sd_bus_message_new_method_call(bus, &m, "org.freedesktop.login1", "/org/freedesktop/login1",
                                           "org.freedesktop.login1.Manager", "Inhibit");
    if (r < 0) return r;
    r = sd_bus_message_append(m, "ssss", what, who, why, mode);
    if (r >= 0) r = sd_bus_call(bus, m, timeout_usec, error, &reply);
    sd_bus_message_unref(m);
    if (r < 0) return r;
    r = sd_bus_message_read(reply, "h", &fd);
    if (r >= 0) {
        r = fcntl(fd, F_DUPFD_CLOEXEC, 3);
        if (r < 0) r = -errno;
    }
    sd_bus_message_unref(reply);
    return r;
}

/* A method call without arguments (e.g. ObjectManager.GetManagedObjects); *reply is the
 * caller's to unref. Returns >= 0 or -errno with *error filled in. */
static inline int csd_bus_call_noargs(sd_bus *bus, const char *destination, const char *path,
                                      const char *interface, const char *member, uint64_t timeout_usec,
                                      sd_bus_error *error, sd_bus_message **reply) {
    sd_bus_message *m = NULL;
    int r = sd_bus_message_new_method_call(bus, &m, destination, path, interface, member);
    if (r < 0) return r;
    r = sd_bus_call(bus, m, timeout_usec, error, reply);
    sd_bus_message_unref(m);
    return r;
}

#endif
