// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    import Glibc
#endif
import LogbookPOSIX
import Testing

@Suite struct SystemErrorTests {
    @Test func describesTheCallThePathAndTheErrno() {
        let error = SystemError("open", path: "/var/lib/logbook/journal/LOCK", code: EACCES)
        #expect(error.description == "open /var/lib/logbook/journal/LOCK: Permission denied (errno 13)")
        #expect(SystemError("poll", code: -EINTR).description == "poll: Interrupted system call (errno 4)")
        #expect(SystemError.text(ENOSPC) == "No space left on device")
    }

    @Test func currentReadsErrno() {
        #expect(close(-1) == -1)
        #expect(SystemError.current("close").code == EBADF)
    }
}
