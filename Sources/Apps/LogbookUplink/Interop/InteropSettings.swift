// SPDX-License-Identifier: MIT
/// `[uplink.owntracks]`: the car as an OwnTracks device.
public struct OwnTracksSettings: Sendable, Equatable {
    /// `http` (the Recorder's `/pub`, ``url``) or `mqtt` (the `[uplink.mqtt]` broker, topic
    /// `owntracks/USER/DEVICE`, on a connection of its own).
    public var transport = "http"
    /// The Recorder's publish URL (`http://recorder:8083/pub`), for `transport = "http"`.
    public var url: HTTPURL?
    /// OwnTracks user and device (topic `owntracks/USER/DEVICE`); device default: the device id.
    public var user = "logbook"
    public var device: String?
    /// Tracker id shown on maps (default: the device's last two characters).
    public var tid: String?
    /// HTTP basic authentication (`username` with `password_file`).
    public var username: String?
    public var passwordFile: String?
    /// `Basic …`, set from the two above at load time.
    public var authorization: String?
    public var drainRate = 0.0
    public var batchPoints = 500
    public var reconnectMax = 30

    public init() {}
}

/// `[uplink.overland]`: Overland batches.
public struct OverlandSettings: Sendable, Equatable {
    public var url: HTTPURL
    /// Sent as `Authorization: Bearer …` (Dawarich also takes `?api_key=` in the URL).
    public var token: String?
    /// `device_id` in every location (default: the device id).
    public var deviceID: String?
    /// Locations per POST.
    public var batchPoints = 200
    public var drainRate = 0.0
    public var reconnectMax = 30

    public init(url: HTTPURL) { self.url = url }
}

/// `[uplink.osmand]`: the OsmAnd protocol (Traccar).
public struct OsmAndSettings: Sendable, Equatable {
    /// Traccar's OsmAnd port, e.g. `http://traccar:5055/`.
    public var url: HTTPURL
    /// The device identifier registered in Traccar (default: the device id).
    public var id: String?
    public var drainRate = 0.0
    public var batchPoints = 500
    public var reconnectMax = 30

    public init(url: HTTPURL) { self.url = url }
}
