// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookRecords

/// A recurring service task (oil, inspection, tyres): every N km and/or every N months from
/// when it was last done.
public struct ServiceTask: Sendable, Hashable {
    public var id: String
    public var vehicle: String
    public var name: String
    public var everyKm: Double?
    public var everyMonths: Int?
    /// When and at what odometer it was last done (its newest `service.done`, else what the
    /// task was entered with, else — for the date — when it was entered).
    public var lastDoneAt: GPSTime?
    public var lastDoneKm: Double?
    public var removed: Bool
    public var history: [RecordedEntry]
    /// Its short number (`#3`): its place among all tasks in journal order, from 1.
    public var number: Int

    public init(
        id: String, vehicle: String, name: String, everyKm: Double?, everyMonths: Int?, lastDoneAt: GPSTime?, lastDoneKm: Double?,
        removed: Bool = false, history: [RecordedEntry] = [], number: Int = 0
    ) {
        self.id = id
        self.number = number
        self.vehicle = vehicle
        self.name = name
        self.everyKm = everyKm
        self.everyMonths = everyMonths
        self.lastDoneAt = lastDoneAt
        self.lastDoneKm = lastDoneKm
        self.removed = removed
        self.history = history
    }
}

/// Where a task stands now.
public struct ServiceDue: Sendable, Hashable {
    public enum State: String, Sendable { case overdue, dueSoon = "due_soon", ok, unknown }

    public var task: ServiceTask
    public var dueKm: Double?
    public var dueAt: GPSTime?
    /// km until due (negative: overdue), from the estimated odometer now.
    public var kmLeft: Double?
    public var daysLeft: Double?
    public var state: State

    /// Due soon: within max(500 km, 10 % of the interval) or 30 days.
    public init(_ task: ServiceTask, odometerNow: Double?, now: GPSTime) {
        self.task = task
        if let every = task.everyKm, let last = task.lastDoneKm { dueKm = last + every }
        if let months = task.everyMonths, let last = task.lastDoneAt { dueAt = Self.adding(months: months, to: last) }
        if let dueKm, let odometerNow { kmLeft = dueKm - odometerNow }
        if let dueAt { daysLeft = dueAt.seconds(since: now) / 86_400 }
        let soonKm = max(500, (task.everyKm ?? 0) * 0.1)
        if (kmLeft.map { $0 <= 0 } ?? false) || (daysLeft.map { $0 <= 0 } ?? false) {
            state = .overdue
        } else if (kmLeft.map { $0 <= soonKm } ?? false) || (daysLeft.map { $0 <= 30 } ?? false) {
            state = .dueSoon
        } else {
            state = kmLeft == nil && daysLeft == nil ? .unknown : .ok
        }
    }

    /// The same time of day `months` calendar months later (the day clamped to the month's end).
    static func adding(months: Int, to t: GPSTime) -> GPSTime {
        let day: Int64 = 86_400_000_000_000
        let days = t.nanoseconds >= 0 ? t.nanoseconds / day : (t.nanoseconds - day + 1) / day
        let timeOfDay = t.nanoseconds - days * day
        let date = CivilDate(daysSinceEpoch: days)
        let total = date.year * 12 + (date.month - 1) + months
        let (ny, nm) = (total / 12, total % 12 + 1)
        let first = CivilDate(year: ny, month: nm, day: 1).daysSinceEpoch
        let length = CivilDate(year: nm == 12 ? ny + 1 : ny, month: nm == 12 ? 1 : nm + 1, day: 1).daysSinceEpoch - first
        return GPSTime(nanoseconds: CivilDate(year: ny, month: nm, day: min(date.day, Int(length))).daysSinceEpoch * day + timeOfDay)
    }

    public var json: JSONValue {
        .object([
            ("task", .string(task.id)), ("number", .integer(task.number)), ("vehicle", .string(task.vehicle)), ("name", .string(task.name)),
            ("state", .string(state.rawValue)), ("due_km", .number(dueKm)), ("km_left", .number(kmLeft.map { ($0 * 10).rounded() / 10 })),
            ("due_at", .string(dueAt.map(ISO8601.format))), ("days_left", .number(daysLeft.map { ($0 * 10).rounded() / 10 })),
        ])
    }
}

extension Garage {
    mutating func applyService(_ recorded: RecordedEntry) {
        let e = recorded.entry
        if e.type == ServiceDoneRecord.type {
            guard let done = try? ServiceDoneRecord(json: e.fields), let i = services.firstIndex(where: { $0.id == done.task }) else {
                return noteIgnored(recorded)
            }
            services[i].lastDoneAt = done.at
            if let km = done.odometerKm { services[i].lastDoneKm = km }
            services[i].history.append(recorded)
            return
        }
        if let i = services.firstIndex(where: { $0.id == e.subject }) {
            if e.action == .void { services[i].removed = true }
            services[i].history.append(recorded)
            return
        }
        guard e.action == .add, let task = try? ServiceTaskRecord(json: e.fields) else { return noteIgnored(recorded) }
        services.append(ServiceTask(
            id: e.subject, vehicle: task.vehicle, name: task.name, everyKm: task.everyKm, everyMonths: task.everyMonths,
            lastDoneAt: task.lastDoneAt ?? recorded.recordedAt, lastDoneKm: task.lastDoneKm, removed: false, history: [recorded],
            number: services.count + 1))
    }

    func checkService(_ entry: RecordEntry) throws(EntryProblem) {
        switch (entry.type, entry.action) {
        case (ServiceTaskRecord.type, .add):
            if services.contains(where: { $0.id == entry.subject && !$0.removed }) {
                throw EntryProblem("duplicate", "service task \(entry.subject) exists already")
            }
            try checkActiveVehicle(try ServiceTaskRecord(json: entry.fields).vehicle)
        case (ServiceTaskRecord.type, _), (ServiceDoneRecord.type, _):
            let id = entry.type == ServiceTaskRecord.type ? entry.subject : try ServiceDoneRecord(json: entry.fields).task
            guard services.contains(where: { $0.id == id && !$0.removed }) else { throw EntryProblem("unknown_entry", "no service task \(id)") }
        default:
            throw .bad("unknown entry \(entry.type) \(entry.action.rawValue)")
        }
    }
}
