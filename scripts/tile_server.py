# SPDX-License-Identifier: MIT
"""A raster tile server on loopback for the map tests: draws its own 256x256 PNG tiles (a
checkerboard shade with a dark border, no third-party data) at /{z}/{x}/{y}.png, records
every request, and can be stopped while a page is open (the maps' offline view)."""
import http.server
import struct
import threading
import time
import zlib


def png(width, height, pixel):
    """An RGB PNG whose pixel (x, y) is pixel(x, y) -> (r, g, b)."""
    rows = b"".join(b"\x00" + bytes(c for x in range(width) for c in pixel(x, y)) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b"")


def tile(z, x, y):
    shade = (214, 222, 206) if (x + y) % 2 == 0 else (196, 208, 222)
    return png(256, 256, lambda px, py: (90, 90, 90) if px in (0, 255) or py in (0, 255) else shade)


class TileServer:
    """Serves tiles on 127.0.0.1 (a free port) from a thread; .requests lists (z, x, y)."""

    def __init__(self):
        self.requests = []
        self.delay = 0.0  # seconds each tile waits before its answer (a slow server)
        self.lock = threading.Lock()
        self.cache = {}
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                parts = self.path.split("?")[0].strip("/").split("/")
                try:
                    z, x, y = int(parts[0]), int(parts[1]), int(parts[2].removesuffix(".png"))
                except (IndexError, ValueError):
                    self.send_error(404)
                    return
                if owner.delay:
                    time.sleep(owner.delay)
                with owner.lock:
                    owner.requests.append((z, x, y))
                    body = owner.cache.get((x + y) % 2) or tile(z, x, y)
                    owner.cache[(x + y) % 2] = body
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "image/png")
                    self.send_header("Content-Length", str(len(body)))
                    self.send_header("Cache-Control", "no-store")
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the map panned on and the browser cancelled the tile

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def template(self):
        return f"http://127.0.0.1:{self.port}/{{z}}/{{x}}/{{y}}.png"

    def taken(self):
        with self.lock:
            out, self.requests = self.requests, []
        return out

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
