// SPDX-License-Identifier: MIT
// A thread of its own hands values to a task through an AsyncStream, as logbookd's GPS reader
// does. Each hand-off wakes the task through libdispatch, which allocates a continuation on
// the handing thread (it has none cached: it never frees one) and frees it on a pool thread
// into that thread's cache (up to 1,024 of 64 bytes). The heap in use is printed as the
// hand-offs go on: it climbs while the caches fill and then stays flat.
import Glibc

let total = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 60_000
let (stream, feed) = AsyncStream<Int>.makeStream(bufferingPolicy: .unbounded)

final class Semaphore: @unchecked Sendable {
    private let s = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)  // a fixed address
    init() { sem_init(s, 0, 0) }
    func signal() { sem_post(s) }
    func wait() { sem_wait(s) }
}

var reader = pthread_t()
pthread_create(&reader, nil, { _ in
    for i in 1...total {
        feed.yield(i)
        usleep(100)  // the consumer is waiting again by the next hand-off
    }
    feed.finish()
    return nil
}, nil)

let done = Semaphore()
Task.detached {
    let base = Int(heap_in_use())
    var handoffs = 0
    for await _ in stream {
        handoffs += 1
        // A little work hopping between pool threads, as the daemon's services do.
        await withTaskGroup(of: Void.self) { group in group.addTask {} }
        if handoffs == total || [100, 300, 1_000, 3_000, 10_000, 30_000].contains(handoffs) {
            print("dispatch-cache: \(handoffs) hand-offs, heap +\((Int(heap_in_use()) - base) / 1024) KiB")
        }
    }
    done.signal()
}
done.wait()
