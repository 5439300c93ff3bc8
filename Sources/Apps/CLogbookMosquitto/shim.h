// SPDX-License-Identifier: MIT
// libmosquitto (Debian libmosquitto-dev, 2.0) for LogbookMQTT, its only importer.
#ifndef CLOGBOOK_MOSQUITTO_SHIM_H
#define CLOGBOOK_MOSQUITTO_SHIM_H
#include <mosquitto.h>

/* MOSQ_OPT_* are enum constants Swift imports; these wrappers keep the option calls typed. */
static inline int cmosq_set_protocol_v311(struct mosquitto *m) {
    return mosquitto_int_option(m, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311);
}
/* More messages in flight than the default 20 lets a backlog drain at broker speed. */
static inline int cmosq_set_max_inflight(struct mosquitto *m, int n) {
    return mosquitto_int_option(m, MOSQ_OPT_SEND_MAXIMUM, n);
}
#endif
