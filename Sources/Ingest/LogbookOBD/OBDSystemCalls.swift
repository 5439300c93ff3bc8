// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// Every system call of the OBD transport, in one file: a serial device through termios, a
/// TCP connection, reads and writes with a deadline (poll), and the reader thread.
enum OBDSystem {
    /// Why a device or address could not be opened.
    enum OpenFailure: Error {
        /// The device node does not exist (yet): a Bluetooth adapter not bound, a USB one unplugged.
        case missing
        case failed(String)
    }

    /// What a wait for input came to.
    enum ReadResult {
        case bytes(Int)
        case timeout
        case closed
        case failed(String)
    }

    static func deviceExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Opens a serial device raw (8N1, no flow control, no echo), non-blocking, at `baud`.
    /// A node that is not a terminal (a pty's peer is one; a FIFO in a test is not) is used as is.
    static func openSerial(_ path: String, baud: Int) -> Result<Int32, OpenFailure> {
        let fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(errno == ENOENT ? .missing : .failed(errorText(errno))) }
        var t = termios()
        if tcgetattr(fd, &t) == 0 {
            cfmakeraw(&t)
            t.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD)
            t.c_cflag &= ~(tcflag_t(CSTOPB) | tcflag_t(CRTSCTS))
            withUnsafeMutableBytes(of: &t.c_cc) { cc in
                cc[Int(VMIN)] = 0  // reads return at once; poll does the waiting
                cc[Int(VTIME)] = 0
            }
            if let speed = speedConstant(baud) {
                cfsetispeed(&t, speed)
                cfsetospeed(&t, speed)
            }
            guard tcsetattr(fd, TCSANOW, &t) == 0 else {
                let e = errno
                close(fd)
                return .failure(.failed("termios: " + errorText(e)))
            }
            tcflush(fd, TCIOFLUSH)
        }
        return .success(fd)
    }

    /// The termios speed for `baud`, nil for a rate the kernel has no constant for.
    static func speedConstant(_ baud: Int) -> speed_t? {
        switch baud {
        case 9600: speed_t(B9600)
        case 19200: speed_t(B19200)
        case 38400: speed_t(B38400)
        case 57600: speed_t(B57600)
        case 115200: speed_t(B115200)
        case 230400: speed_t(B230400)
        case 460800: speed_t(B460800)
        case 500000: speed_t(B500000)
        case 921600: speed_t(B921600)
        case 1_000_000: speed_t(B1000000)
        case 2_000_000: speed_t(B2000000)
        default: nil
        }
    }

    /// Connects to `host:port` (every address it resolves to, in turn), non-blocking, within `timeout` s.
    static func connectTCP(host: String, port: String, timeout: Double) -> Result<Int32, OpenFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, port, &hints, &list)
        guard rc == 0, let first = list else { return .failure(.failed(String(cString: gai_strerror(rc)))) }
        defer { freeaddrinfo(list) }
        var problem = "no address"
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let a = next {
            next = a.pointee.ai_next
            let fd = socket(a.pointee.ai_family, a.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), a.pointee.ai_protocol)
            guard fd >= 0 else {
                problem = errorText(errno)
                continue
            }
            if connect(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                if poll(&p, 1, Int32(timeout * 1000)) == 1 {
                    var err: Int32 = 0
                    var len = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)
                    if err == 0 {
                        var one: Int32 = 1
                        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                        return .success(fd)
                    }
                    problem = errorText(err)
                } else {
                    problem = "connect timed out"
                }
            } else {
                problem = errorText(errno)
            }
            close(fd)
        }
        return .failure(.failed(problem))
    }

    /// Waits up to `milliseconds` for input and reads what is there into `buffer`.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, waitMilliseconds: Int32) -> ReadResult {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let rc = poll(&p, 1, waitMilliseconds)
        if rc == 0 { return .timeout }
        if rc < 0 { return errno == EINTR ? .timeout : .failed(errorText(errno)) }
        let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
        if n > 0 { return .bytes(n) }
        if n == 0 { return .closed }
        if errno == EAGAIN || errno == EINTR { return .timeout }
        return .failed(errorText(errno))  // EIO: the pty's other side is gone
    }

    /// Writes all of `bytes` within `milliseconds`; false on error or timeout.
    static func write(_ fd: Int32, _ bytes: [UInt8], waitMilliseconds: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&p, 1, waitMilliseconds) == 1, p.revents & Int16(POLLOUT) != 0 else { return false }
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    static func close(_ fd: Int32) { _ = Glibc.close(fd) }

    /// Starts a detached thread named `name` (`ps -L`, `top -H`) running `body`.
    static func startThread(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(ThreadBody(name: name, body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, nil,
            { arg in
                guard let arg else { return nil }
                let body = Unmanaged<ThreadBody>.fromOpaque(arg).takeRetainedValue()
                // The thread's name through procfs: pthread_setname_np is not in the Glibc
                // module without _GNU_SOURCE, and prctl is variadic.
                let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
                if fd >= 0 {
                    let name = Array(body.name.utf8.prefix(15))
                    _ = name.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                    _ = Glibc.close(fd)
                }
                body.run()
                return nil
            }, box)
        guard rc == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(box).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    static func sleep(milliseconds: Int) { usleep(UInt32(milliseconds) * 1000) }

    static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) + " (\(code))" }
}

/// Box handing a closure to a new pthread.
private final class ThreadBody {
    let name: String
    let run: () -> Void
    init(name: String, _ run: @escaping () -> Void) {
        self.name = name
        self.run = run
    }
}
