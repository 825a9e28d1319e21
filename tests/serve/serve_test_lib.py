"""serve_test_lib.py — helpers for the tests of `arbiter serve`: start a real server process on
127.0.0.1 port 0 (it prints `listening on http://HOST:PORT`), send requests, read SSE."""
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time


def fresh_journal(work, name):
    """WORK/NAME, with no journal (nor -wal, -shm) left from an earlier run."""
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, name)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    return path


class Server:
    def __init__(self, arbiter, journal, *extra, threads=64):
        self.arbiter, self.journal, self.extra, self.threads = arbiter, journal, list(extra), threads
        self.proc = None
        self.port = None

    def start(self):
        cmd = [self.arbiter, "serve", "--journal", self.journal, "--listen", "127.0.0.1:0",
               "--threads", str(self.threads)] + self.extra
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 20
        line = ""
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if line.startswith("listening on http://"):
                self.port = int(line.strip().rsplit(":", 1)[1])
                return self
            if self.proc.poll() is not None:
                break
        raise AssertionError("server did not start: %r %s" % (line, self.proc.stderr.read()))

    def stop(self, sig=signal.SIGTERM):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                raise AssertionError("server did not stop on %s" % sig)
        return self.proc.returncode

    def request(self, method, path, body=None, headers=None, timeout=20):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        data = body if isinstance(body, (bytes, type(None))) else (
            body.encode() if isinstance(body, str) else json.dumps(body).encode())
        c.request(method, path, body=data, headers=headers or {})
        r = c.getresponse()
        raw = r.read()
        c.close()
        ctype = r.getheader("Content-Type", "")
        parsed = None
        if ctype.startswith("application/json"):
            parsed = json.loads(raw)
        return r.status, parsed, raw, dict(r.getheaders())

    def raw(self, data, timeout=10):
        """Sends bytes on a fresh connection; returns the status code of the answer (0: none)."""
        s = socket.create_connection(("127.0.0.1", self.port), timeout=timeout)
        got = b""
        try:
            s.sendall(data)
            while b"\r\n" not in got:
                chunk = s.recv(4096)
                if not chunk:
                    break
                got += chunk
        except (ConnectionResetError, BrokenPipeError, socket.timeout):
            pass
        finally:
            s.close()
        parts = got.split(b" ", 2)
        return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0


class Stream:
    """An SSE listener on a raw socket: events() yields (event, id, data) as they arrive."""

    def __init__(self, port, path, headers=""):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.sock.sendall(("GET %s HTTP/1.1\r\nHost: x\r\n%s\r\n" % (path, headers)).encode())
        self.buf = b""
        head = self._until(b"\r\n\r\n")
        self.status = int(head.split(b" ")[1])
        self.chunked = b"chunked" in head.lower()

    def _until(self, sep):
        while sep not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("stream closed")
            self.buf += chunk
        i = self.buf.index(sep)
        out, self.buf = self.buf[:i], self.buf[i + len(sep):]
        return out

    def _text(self):
        # De-chunks everything received so far into SSE text.
        text = b""
        while True:
            size_line = self._until(b"\r\n")
            size = int(size_line, 16)
            while len(self.buf) < size + 2:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise EOFError("stream closed")
                self.buf += chunk
            text += self.buf[:size]
            self.buf = self.buf[size + 2:]
            if text.endswith(b"\n\n") or size == 0:
                return text.decode()

    def next_state(self):
        while True:
            for block in self._text().split("\n\n"):
                fields = {}
                for line in block.split("\n"):
                    if ":" in line and not line.startswith(":"):
                        k, v = line.split(":", 1)
                        fields[k] = v[1:] if v.startswith(" ") else v
                if fields.get("event") == "state":
                    return int(fields["id"]), json.loads(fields["data"])

    def close(self):
        self.sock.close()


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def run(tests):
    failed = 0
    for name, fn in tests:
        t = time.time()
        try:
            fn()
            print("ok   %-40s %.1fs" % (name, time.time() - t), flush=True)
        except Exception as e:  # report and carry on
            failed += 1
            print("FAIL %-40s %s: %s" % (name, type(e).__name__, e), flush=True)
    print("%d of %d failed" % (failed, len(tests)))
    sys.exit(1 if failed else 0)
