#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks what the uplink published against Home Assistant's own code (PyPI `homeassistant`,
installed by scripts/ha-venv.sh), not against a reading of it.

Input (file argument): one MQTT message per line, `{"topic": …, "payload": …}`, in the order
the broker delivered them (discovery configs and the state topics they read).

For every discovery config (`<prefix>/<component>/<node>/<object>/config`):
  - the topic must match HA's discovery TOPIC_MATCHER, the origin HA's MQTT_ORIGIN_INFO_SCHEMA;
  - the payload must pass the MQTT platform's DISCOVERY_SCHEMA (sensor, binary_sensor,
    device_tracker), and the schema must keep every key (REMOVE_EXTRA drops unknown keys
    silently: a misspelt key would do nothing in HA);
  - HA's own entity class (MqttSensor, MqttBinarySensor, MqttDeviceTracker) is built from
    the validated config and every message of its state, attributes and availability topics
    is fed through its own callbacks, in order; after each, the entity's state and
    attributes are read as HA writes them. Any warning or error HA logs on the way (an
    "Invalid state message", a template error, a state not in an enum's options) or raises
    is a failure.

With a second argument, writes what each entity shows after the last message, one JSON
object a line: `{"unique_id", "state", "available", "attributes"}` (HA's state string).

Prints `FAIL <topic>: <why>` lines and, last, `ha-check: homeassistant <version>: <n> configs
valid, <m> invalid, <k> state messages through HA's entities`. Exit status 1 if anything failed.
"""
import asyncio
import collections
import importlib
import json
import logging
import sys
import tempfile
from types import SimpleNamespace
from unittest.mock import MagicMock

import voluptuous as vol
# Before MQTT: HA's own loader imports these first (some releases have an import cycle
# websocket_api → http → persistent_notification → websocket_api otherwise).
import homeassistant.components.persistent_notification  # noqa: F401
from homeassistant.const import __version__ as ha_version
from homeassistant.core import HomeAssistant
from homeassistant.components.mqtt import discovery, subscription
from homeassistant.components.mqtt.models import ReceiveMessage

CLASSES = {"sensor": "MqttSensor", "binary_sensor": "MqttBinarySensor", "device_tracker": "MqttDeviceTracker"}


class Problems(logging.Handler):
    """Collects what HA logs at WARNING and above while an entity handles a message."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(record.getMessage())


class DebugInfo(dict):
    """`debug_info_entities[entity]["subscriptions"][topic]["messages"]`, made on first use."""

    def __missing__(self, key):
        value = [] if key == "messages" else DebugInfo()
        self[key] = value
        return value


def message(topic, payload):
    kwargs = dict(topic=topic, payload=payload, qos=1, retain=True, subscribed_topic=topic, timestamp=0.0)
    try:
        return ReceiveMessage(**kwargs)
    except TypeError:  # older and newer releases differ in fields
        fields = ReceiveMessage.__dataclass_fields__ if hasattr(ReceiveMessage, "__dataclass_fields__") else {}
        return ReceiveMessage(**{k: v for k, v in kwargs.items() if k in fields})


def callbacks(entity):
    """HA's own message callbacks of the entity, by topic."""
    out = collections.defaultdict(list)
    entity._prepare_subscribe_topics()
    entity._attributes_prepare_subscribe_topics()
    entity._availability_prepare_subscribe_topics()
    for state in (entity._sub_state, entity._attributes_sub_state, entity._availability_sub_state):
        for sub in state.values():
            if sub.topic and sub.message_callback:
                out[sub.topic].append(sub.message_callback)
    return out


async def check(lines, shown):
    hass = HomeAssistant(tempfile.mkdtemp())
    # What the entities' message wrappers look up (debug info) and nothing else of MQTT's setup.
    hass.data["mqtt"] = SimpleNamespace(
        debug_info_entities=DebugInfo(), debug_info_triggers={}, client=SimpleNamespace(connected=True),
        state_write_requests=SimpleNamespace(write_state_request=lambda entity: entity.async_write_ha_state()))
    subscription.EntitySubscription.resubscribe_if_necessary = lambda self, hass, other: None
    problems = Problems()
    logging.getLogger("homeassistant").addHandler(problems)
    messages = [json.loads(line) for line in lines if line.strip()]
    valid = invalid = fed = 0
    failures = []
    for m in messages:
        topic, payload = m["topic"], m["payload"]
        if not topic.endswith("/config") or not payload:
            continue
        prefix = topic.split("/", 1)[0]
        match = discovery.TOPIC_MATCHER.match(topic[len(prefix) + 1:])
        if not match:
            failures.append(f"{topic}: does not match TOPIC_MATCHER")
            invalid += 1
            continue
        component = match.group("component")
        try:
            raw = json.loads(payload)
            if "origin" in raw:
                discovery.MQTT_ORIGIN_INFO_SCHEMA(raw["origin"])
            platform = importlib.import_module(f"homeassistant.components.mqtt.{component}")
            config = platform.DISCOVERY_SCHEMA(dict(raw))
            dropped = sorted(set(raw) - set(config))
            if dropped:
                raise vol.Invalid(f"keys HA drops: {dropped}")
        except (vol.Invalid, ValueError, ModuleNotFoundError) as err:
            failures.append(f"{topic}: {err}")
            invalid += 1
            continue
        valid += 1
        entity = getattr(platform, CLASSES[component])(hass, config, MagicMock(), None)
        entity.entity_id = f"{component}.{raw.get('unique_id', 'x')}"
        entity.hass = hass
        seen = []

        def written(entity=entity, seen=seen):
            seen.append((entity.state, entity.extra_state_attributes, entity.available))

        entity.async_write_ha_state = written
        handlers = callbacks(entity)
        for other in messages:
            for callback in handlers.get(other["topic"], []):
                problems.records.clear()
                try:
                    callback(message(other["topic"], other["payload"]))
                    written()
                except Exception as err:  # HA raising while handling or writing the state
                    problems.records.append(f"{type(err).__name__}: {err}")
                fed += 1
                for record in problems.records:
                    failures.append(f"{topic}: state message on {other['topic']} {other['payload'][:120]!r}: {record}")
        state, attributes, available = seen[-1] if seen else (None, None, None)
        shown.append({"unique_id": raw.get("unique_id"), "state": state, "available": available,
                      "attributes": attributes or {}})
    for f in failures:
        print("FAIL " + f)
    print(f"ha-check: homeassistant {ha_version}: {valid} configs valid, {invalid} invalid, {fed} state messages through HA's entities")
    return not failures


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        lines = f.readlines()
    shown = []
    ok = asyncio.run(check(lines, shown))
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w", encoding="utf-8") as f:
            for entity in shown:
                f.write(json.dumps(entity, default=str) + "\n")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
