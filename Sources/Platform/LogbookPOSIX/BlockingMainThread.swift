// SPDX-License-Identifier: MIT
internal import Dispatch

/// Runs `body` on the global executor and parks the main thread until it returns its status.
///
/// Why not an `async` top level: its main executor parks the main thread in `dispatch_main()`,
/// which ends it with `pthread_exit`, and glibc's forced unwind of that thread reads the
/// binary's `.eh_frame_hdr` and `.eh_frame` (~0.7 MiB that then stay resident; docs/memory.md).
/// For programs (logbookd, logbook-uplink) of which nothing runs on the main actor, so that
/// nothing waits for a main queue.
public func runBlockingMainThread(_ body: @escaping @Sendable () async -> Int32) -> Int32 {
    let status = StatusBox()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        status.value = await body()
        done.signal()
    }
    done.wait()
    return status.value
}

/// Written once by the task before it signals, read once by the main thread after the wait.
private final class StatusBox: @unchecked Sendable {
    var value: Int32 = 0
}
