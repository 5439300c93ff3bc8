#!/usr/bin/python3
"""sockprobe.py SOCKET: connect to the logbookd control socket as the calling user, send
{"cmd":"status"} and print "OK <first reply line>" or "ERR <errno name>" (exit 0 both)."""
import errno, socket, sys
try:
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); c.settimeout(5); c.connect(sys.argv[1])
    c.sendall(b'{"cmd":"status"}\n')
    print("OK " + c.makefile().readline().strip()[:300])
except OSError as e:
    print("ERR " + (errno.errorcode.get(e.errno, str(e)) if e.errno else str(e)))
