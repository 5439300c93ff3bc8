// SPDX-License-Identifier: MIT
internal import Dispatch
internal import LogbookCore
internal import LogbookSettings
internal import Logging
internal import LogbookPOSIX
#if canImport(Glibc)
    internal import Glibc
#endif

/// Runs the configured hooks (`[hooks]`): a shell command per trip start and end, fault code,
/// low battery and arrival at or departure from a place, with the event's data in `LOGBOOK_*` environment variables (start a
/// dashcam, set do-not-disturb, send a notification, shut the Pi down).
///
/// Hooks run on a Dispatch queue of their own, never in the pipeline: a slow or hanging hook
/// is killed after the timeout and its output is logged, but nothing waits for it.
final class HookRunner: Sendable {
    /// Commands by event: `start`, `end`, `fault_code`, `low_battery`, `place_enter`, `place_leave`.
    let commands: [String: String]
    let timeout: Double
    private let logger: Logger
    private let queue = DispatchQueue(label: "logbook.hooks", attributes: .concurrent)
    private let running = DispatchGroup()

    init(commands: [String: String], timeout: Double, logger: Logger) {
        self.commands = commands
        self.timeout = timeout
        self.logger = logger
    }

    /// The commands of `c`'s `[hooks]`, or nil when none is set.
    static func commands(of c: Settings) -> [String: String]? {
        let all = [
            "start": c.hookOnTripStart, "end": c.hookOnTripEnd, "fault_code": c.hookOnFaultCode, "low_battery": c.hookOnLowBattery,
            "place_enter": c.hookOnPlaceEnter, "place_leave": c.hookOnPlaceLeave,
        ]
        let set = all.compactMapValues { $0 }
        return set.isEmpty ? nil : set
    }

    /// Starts the hook for `event` if one is configured; returns at once.
    func run(event: String, environment: [String: String]) {
        // A reopened trip (restart mid-drive) runs the start hook again: what it started
        // (a dashcam) died with the reboot.
        guard let command = commands[event == "reopen" ? "start" : event] else { return }
        var env = environment
        env["LOGBOOK_EVENT"] = event
        let fixed = env
        queue.async(group: running) { [self] in execute(command, fixed, event) }
    }

    /// At shutdown: lets hooks already started (the trip-end hook) finish, for at most `limit`.
    func waitForRunningHooks(upTo limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [running] in
                await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                    running.notify(queue: .global()) { c.resume() }
                }
            }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Runs `command` with `/bin/sh -c` and waits for it (on the caller's thread), logging the result.
    func execute(_ command: String, _ extra: [String: String], _ event: String) {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { return logger.error("hook: cannot create a pipe") }
        _ = fcntl(pipe[0], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        // The daemon blocks SIGTERM & co. for its signal handling; the hook must not inherit that.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        // Nor the signals it ignores (SIG_IGN survives exec): a hook piping into `head` must
        // die of SIGPIPE as usual.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in ProcessSignals.resetForChildren { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var env = ProcessEnvironment.current()
        for (k, v) in extra { env[k] = v }
        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, envp)
        close(pipe[1])
        guard rc == 0 else {
            close(pipe[0])
            return logger.error("hook could not start", metadata: ["event": "\(event)", "error": "\(rc)"])
        }
        let output = collect(pipe[0], pid: pid)
        close(pipe[0])
        logger.info("hook finished", metadata: ["event": "\(event)", "command": "\(command)", "result": "\(output.result)", "output": "\(output.text)"])
    }

    /// Reads the hook's output until it exits or the timeout passes (then kills its group).
    private func collect(_ fd: Int32, pid: pid_t) -> (text: String, result: String) {
        let deadline = MonotonicClock.seconds() + timeout
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        var status: Int32 = 0
        while true {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 100) > 0 {
                let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0, bytes.count < 16_384 { bytes.append(contentsOf: buf[0..<n]) }
            }
            if waitpid(pid, &status, WNOHANG) == pid {
                let code = (status >> 8) & 0xFF
                return (String(decoding: bytes, as: UTF8.self), (status & 0x7F) == 0 ? "exit \(code)" : "signal \(status & 0x7F)")
            }
            if MonotonicClock.seconds() > deadline {
                kill(-pid, SIGKILL)
                waitpid(pid, &status, 0)
                return (String(decoding: bytes, as: UTF8.self), "killed after \(timeout) s timeout")
            }
        }
    }

}
