// SPDX-License-Identifier: MIT
/// A point in picture coordinates (pixels, y down).
struct PicturePoint: Hashable {
    var x: Double
    var y: Double
}

/// Douglas–Peucker simplification: keeps the first and last vertex and every vertex that lies
/// farther than `tolerance` from the line kept around it. Iterative (an explicit stack), so a
/// run of 100,000 vertices cannot overflow the call stack.
enum LineSimplifier {
    static func simplify(_ line: [PicturePoint], tolerance: Double) -> [PicturePoint] {
        guard line.count > 2 else { return line }
        var keep = [Bool](repeating: false, count: line.count)
        keep[0] = true
        keep[line.count - 1] = true
        var stack: [(Int, Int)] = [(0, line.count - 1)]
        let tolerance2 = tolerance * tolerance
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            var farthest = first, worst = -1.0
            for i in (first + 1)..<last {
                let d = distance2(line[i], line[first], line[last])
                if d > worst {
                    worst = d
                    farthest = i
                }
            }
            if worst > tolerance2 {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, last))
            }
        }
        var out: [PicturePoint] = []
        for (i, p) in line.enumerated() where keep[i] { out.append(p) }
        return out
    }

    /// Squared distance from `p` to the segment `a`–`b`.
    static func distance2(_ p: PicturePoint, _ a: PicturePoint, _ b: PicturePoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let length2 = dx * dx + dy * dy
        var t = length2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2 : 0
        t = min(max(t, 0), 1)
        let ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y
        return ex * ex + ey * ey
    }
}
