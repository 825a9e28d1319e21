"""tls_test.py — `arbiter serve --tls-cert/--tls-key` against real server processes on 127.0.0.1
port 0, with throwaway self-signed certificates made by the openssl command line: HTTPS (the health,
a session, an event seen by an SSE listener, keep-alive), plain HTTP on the HTTPS port answered 400
https_required while HTTPS goes on, clients that say nothing or drip a ClientHello dropped at
--request-timeout, the certificate reloaded on SIGHUP (a new one seen by new connections, an open
connection kept; a broken one or a key of another certificate refused, the old certificate kept),
SIGHUP without TLS harmless, the options checked (exit 2 naming the file or the missing option) and
a non-loopback address refused without TLS unless --insecure-http. Bounded: every wait has a
timeout, about 15 s in all. Usage: tls_test.py ARBITER WORKDIR"""
import http.client
import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time

from serve_test_lib import fresh_journal, Server, check, run

ARBITER, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)


def make_cert(name, cn="localhost"):
    """A self-signed P-256 certificate for localhost and 127.0.0.1: (cert path, key path)."""
    cert, key = os.path.join(WORK, name + ".crt"), os.path.join(WORK, name + ".key")
    p = subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                        "-nodes", "-days", "2", "-subj", "/CN=" + cn,
                        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                        "-keyout", key, "-out", cert], capture_output=True, text=True, timeout=30)
    check(p.returncode == 0, "openssl req: %s" % p.stderr)
    return cert, key


def der(cert_path):
    with open(cert_path) as f:
        return ssl.PEM_cert_to_DER_cert(f.read())


def copy(src, dst):
    with open(src, "rb") as f:
        data = f.read()
    with open(dst, "wb") as f:
        f.write(data)


class TlsServer(Server):
    """A server whose stdout line may say https://, and whose stderr is collected as it comes."""

    def __init__(self, arbiter, journal, *extra, threads=64, listen="127.0.0.1:0"):
        super().__init__(arbiter, journal, *extra, threads=threads)
        self.listen, self.err, self.scheme = listen, [], None

    def start(self):
        cmd = [self.arbiter, "serve", "--journal", self.journal, "--listen", self.listen,
               "--threads", str(self.threads)] + self.extra
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        threading.Thread(target=lambda: self.err.extend(iter(self.proc.stderr.readline, "")), daemon=True).start()
        deadline = time.time() + 20
        line = ""
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if line.startswith("listening on "):
                self.scheme = line.split("//")[0].split()[-1].rstrip(":")
                self.port = int(line.strip().rsplit(":", 1)[1])
                return self
            if self.proc.poll() is not None:
                break
        time.sleep(0.2)  # the rest of stderr
        raise AssertionError("server did not start: %r %s" % (line, "".join(self.err)))

    def stderr_has(self, text, seconds=10):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if any(text in line for line in self.err):
                return True
            time.sleep(0.05)
        return False


def context(cafile):
    """A client context that checks the server's certificate against cafile and the name 127.0.0.1."""
    return ssl.create_default_context(cafile=cafile)


def https(port, cafile, method="GET", path="/api/v1/health", body=None):
    c = http.client.HTTPSConnection("127.0.0.1", port, context=context(cafile), timeout=10)
    try:
        c.request(method, path, body=None if body is None else json.dumps(body).encode())
        r = c.getresponse()
        raw = r.read()
        return r.status, json.loads(raw) if raw else None
    finally:
        c.close()


def peer_der(port):
    """The certificate the server shows to a new connection (not checked: any certificate)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        with ctx.wrap_socket(raw, server_hostname="localhost") as s:
            return s.getpeercert(binary_form=True)


def raw_exchange(port, data, seconds=10):
    """Sends bytes on a fresh plain connection; returns (everything received until the server
    closed, seconds until then). Bounded by `seconds`."""
    t = time.time()
    s = socket.create_connection(("127.0.0.1", port), timeout=seconds)
    got = b""
    try:
        if data:
            s.sendall(data)
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
    except ConnectionResetError:
        pass
    finally:
        s.close()
    return got, time.time() - t


def test_https():
    cert, key = make_cert("https")
    srv = TlsServer(ARBITER, fresh_journal(WORK, "https.journal"), "--tls-cert", cert, "--tls-key", key).start()
    try:
        check(srv.scheme == "https", "the line says https://: %s" % srv.scheme)
        status, j = https(srv.port, cert)
        check(status == 200 and j["status"] == "ok", "health over https: %d %s" % (status, j))
        # Keep-alive: several requests, a body each way, on one connection.
        c = http.client.HTTPSConnection("127.0.0.1", srv.port, context=context(cert), timeout=10)
        c.request("POST", "/api/v1/sessions", body=b'{"white":"Ann","black":"Bob"}')
        r = c.getresponse()
        sid = json.loads(r.read())["id"]
        check(r.status == 201, "a session created over https: %d" % r.status)
        c.request("GET", "/api/v1/sessions/%d" % sid)
        r = c.getresponse()
        check(r.status == 200 and json.loads(r.read())["id"] == sid, "its state on the same connection")
        check(c.sock.version() in ("TLSv1.2", "TLSv1.3"), "TLS 1.2 or 1.3: %s" % c.sock.version())
        c.close()
        # An SSE listener over TLS gets the state, then the state after an event.
        s = context(cert).wrap_socket(socket.create_connection(("127.0.0.1", srv.port), timeout=10),
                                      server_hostname="127.0.0.1")
        s.sendall(b"GET /api/v1/sessions/%d/stream HTTP/1.1\r\nHost: x\r\n\r\n" % sid)
        got = b""

        def until(states):
            nonlocal got
            while got.count(b"event: state") < states:
                chunk = s.recv(65536)  # the socket's timeout bounds each wait
                check(chunk, "the stream ended early: %r" % got)
                got += chunk

        until(1)
        status, j = https(srv.port, cert, "POST", "/api/v1/sessions/%d/events" % sid,
                          {"type": "move", "move": "e4", "at_ms": 1000})
        check(status == 200, "an event over https: %d %s" % (status, j))
        until(2)
        check(b'"moves":["e4"]' in got, "the listener saw the event")
        s.close()
        # A client that does not trust the certificate is refused by its own side.
        try:
            https(srv.port, None)
            check(False, "an unknown certificate was accepted by the default context")
        except ssl.SSLCertVerificationError:
            pass
        check(https(srv.port, cert)[0] == 200, "still serving")
    finally:
        check(srv.stop() == 0, "clean stop")


def test_plain_http_on_https_port():
    cert, key = make_cert("plain")
    srv = TlsServer(ARBITER, fresh_journal(WORK, "plain.journal"), "--tls-cert", cert, "--tls-key", key).start()
    try:
        for request in [b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % srv.port,
                        b"POST /api/v1/sessions HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}",
                        b"GET / HTTP/1.0\r\n\r\n"]:
            got, _ = raw_exchange(srv.port, request)
            head, _, body = got.partition(b"\r\n\r\n")
            check(head.startswith(b"HTTP/1.1 400 "), "plain HTTP answered 400: %r" % got[:80])
            err = json.loads(body)["error"]
            check(err["code"] == "https_required" and
                  ("use https://127.0.0.1:%d" % srv.port in err["message"] or
                   "use https://localhost:%d" % srv.port in err["message"]),
                  "the answer says where to go: %s" % err)
        # Neither TLS nor HTTP: closed without a word.
        got, secs = raw_exchange(srv.port, b"\x00\x01\x02\x03 hello\r\n\r\n")
        check(got == b"" and secs < 5, "garbage closed quietly: %r after %.1f s" % (got[:40], secs))
        check(https(srv.port, cert)[0] == 200, "https goes on after plain HTTP")
        check(srv.proc.poll() is None, "server up")
    finally:
        check(srv.stop() == 0, "clean stop")


def test_silent_clients_dropped():
    # --threads 4, --request-timeout 1: four clients that connect and say nothing, or begin a
    # ClientHello and stop, hold every thread for a second at most; a real client then gets in.
    cert, key = make_cert("silent")
    srv = TlsServer(ARBITER, fresh_journal(WORK, "silent.journal"), "--tls-cert", cert, "--tls-key", key,
                    "--request-timeout", "1", threads=4).start()
    try:
        results = []

        def silent(data):
            results.append(raw_exchange(srv.port, data))

        clients = [threading.Thread(target=silent, args=(d,)) for d in [b"", b"", b"\x16\x03\x01", b"\x16\x03\x01\x02"]]
        t = time.time()
        for c in clients:
            c.start()
        time.sleep(0.2)
        status, _ = https(srv.port, cert)
        answered = time.time() - t
        for c in clients:
            c.join(timeout=15)
        check(status == 200 and answered < 5, "a real client answered after %.1f s: %d" % (answered, status))
        check(len(results) == 4 and all(got == b"" and secs < 4 for got, secs in results),
              "silent clients dropped at the request timeout: %s" % [(g[:10], round(s, 1)) for g, s in results])
    finally:
        check(srv.stop() == 0, "clean stop")


def test_sighup_reload():
    a_cert, a_key = make_cert("a", "arbiter-a")
    b_cert, b_key = make_cert("b", "arbiter-b")
    cert, key = os.path.join(WORK, "served.crt"), os.path.join(WORK, "served.key")
    copy(a_cert, cert)
    copy(a_key, key)
    srv = TlsServer(ARBITER, fresh_journal(WORK, "reload.journal"), "--tls-cert", cert, "--tls-key", key).start()
    try:
        check(peer_der(srv.port) == der(a_cert), "the first certificate served")
        old = http.client.HTTPSConnection("127.0.0.1", srv.port, context=context(a_cert), timeout=10)
        old.request("GET", "/api/v1/health")
        check(old.getresponse().read() and True, "a keep-alive connection open before the reload")
        # A new certificate in the same files.
        copy(b_cert, cert)
        copy(b_key, key)
        srv.proc.send_signal(signal.SIGHUP)
        check(srv.stderr_has("reloaded the TLS certificate from " + cert), "reload reported: %s" % srv.err)
        check(peer_der(srv.port) == der(b_cert), "new connections see the new certificate")
        check(https(srv.port, b_cert)[0] == 200, "https with the new certificate")
        old.request("GET", "/api/v1/health")
        check(old.getresponse().status == 200 and old.sock.getpeercert(True) == der(a_cert),
              "the connection open before the reload goes on with the old certificate")
        old.close()
        # A broken certificate file, then a key of another certificate: refused, the last good
        # certificate still served.
        with open(cert, "w") as f:
            f.write("-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n")
        srv.proc.send_signal(signal.SIGHUP)
        check(srv.stderr_has("still serving the certificate loaded before"), "refusal reported: %s" % srv.err)
        check(any(cert in line and "--tls-cert" in line for line in srv.err), "the file named: %s" % srv.err)
        copy(a_cert, cert)  # with b's key
        srv.err.clear()
        srv.proc.send_signal(signal.SIGHUP)
        check(srv.stderr_has("still serving the certificate loaded before"), "mismatch reported: %s" % srv.err)
        check(any("is not the private key" in line for line in srv.err), "the mismatch named: %s" % srv.err)
        check(srv.proc.poll() is None, "server up after the refused reloads")
        check(peer_der(srv.port) == der(b_cert), "the last good certificate still served")
        check(https(srv.port, b_cert)[0] == 200, "https goes on")
    finally:
        check(srv.stop() == 0, "clean stop")


def test_sighup_without_tls():
    srv = TlsServer(ARBITER, fresh_journal(WORK, "hup.journal")).start()
    try:
        check(srv.scheme == "http", "plain http on loopback: %s" % srv.scheme)
        srv.proc.send_signal(signal.SIGHUP)
        time.sleep(0.3)
        check(srv.proc.poll() is None, "SIGHUP does not end a server without TLS")
        check(srv.request("GET", "/api/v1/health")[0] == 200, "still answering")
    finally:
        check(srv.stop() == 0, "clean stop")


def serve_fails(args, says):
    p = subprocess.run([ARBITER, "serve", "--journal", os.path.join(WORK, "refused.journal")] + args,
                       capture_output=True, text=True, timeout=20)
    lines = p.stderr.strip().split("\n")
    check(p.returncode == 2 and all(s in p.stderr for s in says) and len(lines) == 1,
          "%s: exit %d, %r (expected %s)" % (args, p.returncode, p.stderr, says))


def test_options():
    cert, key = make_cert("opts")
    other_cert, other_key = make_cert("other")
    junk = os.path.join(WORK, "junk.pem")
    with open(junk, "w") as f:
        f.write("this is not PEM\n")
    missing = os.path.join(WORK, "missing.pem")
    serve_fails(["--tls-cert", cert], ["--tls-key"])
    serve_fails(["--tls-key", key], ["--tls-cert"])
    serve_fails(["--tls-cert", junk, "--tls-key", key], ["--tls-cert", junk, "no PEM certificate"])
    serve_fails(["--tls-cert", cert, "--tls-key", junk], ["--tls-key", junk, "no PEM private key"])
    serve_fails(["--tls-cert", key, "--tls-key", key], ["--tls-cert", key])
    serve_fails(["--tls-cert", missing, "--tls-key", key], ["--tls-cert", missing, "cannot read"])
    serve_fails(["--tls-cert", cert, "--tls-key", WORK], ["--tls-key", WORK, "cannot read"])
    serve_fails(["--tls-cert", cert, "--tls-key", other_key], ["--tls-key", other_key, "not the private key", cert])


def test_non_loopback():
    token = os.path.join(WORK, "token")
    with open(token, "w") as f:
        f.write("s3cret-token-0123456789\n")
    serve_fails(["--listen", "0.0.0.0:0"], ["TLS", "--insecure-http", "--tls-cert"])
    serve_fails(["--listen", "0.0.0.0:0", "--token-file", token], ["TLS", "--insecure-http", "--tls-cert"])
    serve_fails(["--listen", "0.0.0.0:0", "--insecure-http"], ["--token-file"])
    # Each way out starts, on every address (asked here on 127.0.0.1).
    srv = TlsServer(ARBITER, fresh_journal(WORK, "insecure.journal"), "--insecure-http", "--token-file", token,
                    listen="0.0.0.0:0").start()
    try:
        check(srv.scheme == "http", "plain http when told: %s" % srv.scheme)
        check(srv.request("GET", "/api/v1/health")[0] == 200, "health over plain http")
        check(srv.request("GET", "/api/v1/sessions")[0] == 401, "the token still needed")
    finally:
        check(srv.stop() == 0, "clean stop")
    cert, key = make_cert("wide")
    srv = TlsServer(ARBITER, fresh_journal(WORK, "wide.journal"), "--token-file", token, "--tls-cert", cert,
                    "--tls-key", key, listen="0.0.0.0:0").start()
    try:
        check(srv.scheme == "https", "https on 0.0.0.0: %s" % srv.scheme)
        check(https(srv.port, cert)[0] == 200, "health over https")
    finally:
        check(srv.stop() == 0, "clean stop")


run([("https: health, a session, SSE, keep-alive", test_https),
     ("plain HTTP on the https port: 400", test_plain_http_on_https_port),
     ("silent and dripping clients dropped", test_silent_clients_dropped),
     ("SIGHUP reloads the certificate", test_sighup_reload),
     ("SIGHUP without TLS is harmless", test_sighup_without_tls),
     ("TLS options checked", test_options),
     ("non-loopback: TLS or --insecure-http", test_non_loopback)])
