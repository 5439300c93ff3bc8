// SPDX-License-Identifier: MIT
// The motion gate for poor fixes: dead reckoning from the receiver's own Doppler velocity.
extension FixFilter {
    /// Whether a poor fix lies where the motion says the vehicle should be: the last accepted
    /// fix moved on by the mean of its velocity and the new fix's (speed and course over
    /// ground come from the Doppler shift, which degrades far less than the position when
    /// satellites are few), within ``FixFilterConfiguration/poorFixGate`` plus
    /// ``FixFilterConfiguration/poorFixGateSpeedFraction`` of the distance driven.
    ///
    /// Without a velocity on either fix there is nothing to check against: refused.
    func agreesWithMotion(_ fix: Fix, after last: Fix) -> Bool {
        let c = configuration
        guard c.poorFixGate > 0, fix.time > last.time else { return false }
        let dt = fix.time.seconds(since: last.time)
        guard dt <= c.poorFixMaxInterval else { return false }
        let before = Self.velocity(of: last), now = Self.velocity(of: fix)
        guard let v0 = before ?? now, let v1 = now ?? before else { return false }
        let predictedNorth = (v0.north + v1.north) / 2 * dt
        let predictedEast = (v0.east + v1.east) / 2 * dt
        let seen = Geodesy.localOffset(from: last, to: fix)
        let miss = ((seen.north - predictedNorth) * (seen.north - predictedNorth)
            + (seen.east - predictedEast) * (seen.east - predictedEast)).squareRoot()
        let driven = max(v0.speed, v1.speed) * dt
        return miss <= c.poorFixGate + c.poorFixGateSpeedFraction * driven
    }

    /// A fix's velocity; a speed under 0.1 m/s needs no course (it is standing still).
    static func velocity(of fix: Fix) -> (north: Double, east: Double, speed: Double)? {
        guard let speed = fix.speed, speed.isFinite, speed >= 0 else { return nil }
        if speed < 0.1 { return (0, 0, speed) }
        guard let track = fix.track, track.isFinite else { return nil }
        let v = Geodesy.velocity(speed: speed, track: track)
        return (v.north, v.east, speed)
    }
}
