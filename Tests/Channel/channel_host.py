"""A release channel on a real static host for the tests of `digno update`: Debian's nginx
serving published channel folders, and a fault-injecting proxy in front of it.

The proxy forwards each GET to nginx and passes the answer on, unless a fault is set for the
path: another status, another body (a replayed or forged head), a body cut off midway with the
connection closed, a truncated, lengthened or altered body, or a slow one. It logs what it was
asked and what it sent.
"""

import base64
import hashlib
import http.client
import http.server
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import threading
import time

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIGNO = os.environ.get("DIGNO", os.path.join(REPOSITORY, ".build", "debug", "digno"))
NGINX = os.environ.get("NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
PAYLOAD_TYPE = "application/vnd.cafedigno.channel-head+json"
# The bundle schema this version's digno writes first and its client reads (CatalogModel's
# supportedSchemaVersion).
NEWEST_SCHEMA = 4


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port, process, name):
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{name} exited with status {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError(f"{name} did not listen on port {port}")


class Nginx:
    """nginx serving `root` on a free loopback port, with gzip_static for the bundles' .gz
    copies, as docs/RELEASES.md configures it. With `page_for_any_path` (a path under `root`,
    such as /index.html), that page answers every path the host lacks, with status 200, as a
    host set up for a single-page app does."""

    def __init__(self, root, access_log=None, page_for_any_path=None):
        if not os.path.exists(NGINX):
            raise RuntimeError("nginx is missing: install it (Debian: apt-get install nginx); .ci/run does")
        self.folder = tempfile.mkdtemp(prefix="digno-nginx-")
        self.port = free_port()
        config = os.path.join(self.folder, "nginx.conf")
        logging = "access_log off;"
        if access_log:
            logging = ('log_format bytes "$request $status in=$request_length out=$bytes_sent body=$body_bytes_sent"; '
                       f"access_log {access_log} bytes;")
        fallback = ""
        if page_for_any_path:
            fallback = f"error_page 404 =200 {page_for_any_path}; location = {page_for_any_path} {{ default_type text/html; }}"
        with open(config, "w") as file:
            file.write(f"""
daemon off;
worker_processes 1;
pid {self.folder}/nginx.pid;
error_log {self.folder}/error.log;
events {{}}
http {{
    {logging}
    client_body_temp_path {self.folder}; proxy_temp_path {self.folder}; fastcgi_temp_path {self.folder};
    uwsgi_temp_path {self.folder}; scgi_temp_path {self.folder};
    types {{ application/json json; application/vnd.sqlite3 sqlite; }}
    server {{
        listen 127.0.0.1:{self.port};
        root {root};
        gzip_static on;
        {fallback}
    }}
}}
""")
        self.process = subprocess.Popen([NGINX, "-e", os.path.join(self.folder, "error.log"), "-p", self.folder, "-c", config],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_for_port(self.port, self.process, "nginx")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)


class Fault:
    """What the proxy does to one path instead of passing it on."""

    def __init__(self, status=None, body=None, cut_after=None, truncate=None, extra=None, flip=None, delay=0.0, headers=None,
                 body_status=200, undeclared=False):
        self.status = status          # answer this status with no body
        self.body = body              # answer `body_status` (200 unless told) with these bytes
        self.body_status = body_status
        self.undeclared = undeclared  # and without Content-Length: the body ends when the connection does
        self.headers = headers or {}  # and these headers with them, such as Content-Encoding
        self.cut_after = cut_after    # send this many bytes of the body, then close the connection
        self.truncate = truncate      # send only this many bytes, as a complete response
        self.extra = extra            # send these bytes after the body
        self.flip = flip              # flip this byte of the body
        self.delay = delay            # seconds to wait before each 16 KiB piece

    def changes_bytes(self):
        return any(value is not None for value in (self.cut_after, self.truncate, self.extra, self.flip))


class Proxy:
    """The fault-injecting proxy in front of nginx."""

    def __init__(self, upstream_port):
        self.faults = {}
        self.log = []
        self.lock = threading.Lock()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                proxy.serve(self, upstream_port)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path=""):
        return f"http://127.0.0.1:{self.port}{path}"

    def set(self, path, fault):
        with self.lock:
            if fault is None:
                self.faults.pop(path, None)
            else:
                self.faults[path] = fault

    def clear(self):
        with self.lock:
            self.faults.clear()
            self.log.clear()

    def requests(self, path=None):
        with self.lock:
            return [entry for entry in self.log if path is None or entry["path"] == path]

    def serve(self, handler, upstream_port):
        with self.lock:
            fault = self.faults.get(handler.path)
        entry = {"path": handler.path, "request": {name: handler.headers[name] for name in ("Range", "If-None-Match", "Accept-Encoding") if handler.headers[name]},
                 "status": None, "headers": {}, "sent": 0}
        with self.lock:
            self.log.append(entry)
        handler.close_connection = True
        if fault is not None and fault.status is not None:
            return self.answer(handler, entry, fault.status, {}, b"")
        if fault is not None and fault.body is not None:
            return self.answer(handler, entry, fault.body_status, {"Content-Type": "application/json", **fault.headers}, fault.body,
                               declared=not fault.undeclared)
        headers = dict(entry["request"])
        if fault is not None and fault.changes_bytes():
            headers["Accept-Encoding"] = "identity"
        upstream = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=30)
        upstream.request("GET", handler.path, headers=headers)
        response = upstream.getresponse()
        passed = {name: response.getheader(name) for name in ("Content-Type", "ETag", "Content-Encoding", "Content-Range", "Accept-Ranges", "Last-Modified")
                  if response.getheader(name)}
        length = int(response.getheader("Content-Length") or 0)
        declared = length
        if fault is not None and fault.truncate is not None:
            declared = min(length, fault.truncate)
        if fault is not None and fault.extra is not None:
            declared = length + len(fault.extra)
        entry["status"] = response.status
        entry["headers"] = passed
        handler.send_response(response.status)
        for name, value in passed.items():
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(declared))
        handler.send_header("Connection", "close")
        handler.end_headers()
        offset = 0
        try:
            while True:
                piece = response.read(16384)
                if not piece:
                    break
                if fault is not None:
                    if fault.delay:
                        time.sleep(fault.delay)
                    if fault.flip is not None and offset <= fault.flip < offset + len(piece):
                        changed = bytearray(piece)
                        changed[fault.flip - offset] ^= 0x01
                        piece = bytes(changed)
                    if fault.truncate is not None:
                        piece = piece[:max(0, fault.truncate - offset)]
                    if fault.cut_after is not None and offset + len(piece) > fault.cut_after:
                        handler.wfile.write(piece[:fault.cut_after - offset])
                        entry["sent"] += fault.cut_after - offset
                        handler.wfile.flush()
                        handler.connection.shutdown(socket.SHUT_RDWR)
                        return
                handler.wfile.write(piece)
                entry["sent"] += len(piece)
                offset += len(piece)
            if fault is not None and fault.extra is not None:
                handler.wfile.write(fault.extra)
                entry["sent"] += len(fault.extra)
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            upstream.close()

    def answer(self, handler, entry, status, headers, body, declared=True):
        entry["status"] = status
        handler.send_response(status)
        for name, value in headers.items():
            handler.send_header(name, value)
        if declared:
            handler.send_header("Content-Length", str(len(body)))
        handler.send_header("Connection", "close")
        handler.end_headers()
        try:
            handler.wfile.write(body)
            entry["sent"] = len(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped reading: what the hostile tests want of it

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def digno(*arguments, check=None, binary=None, **options):
    """Runs digno (this version's, or the one at `binary`); `check` is the exit status expected, if any."""
    result = subprocess.run([binary or DIGNO, *arguments], capture_output=True, text=True, timeout=120, **options)
    if check is not None and result.returncode != check:
        raise AssertionError(f"{binary or 'digno'} {' '.join(arguments)} exited {result.returncode}, not {check}:\n{result.stdout}{result.stderr}")
    return result


def release_copy(base, path, version):
    """A copy of the bundle `base` as another release: its release version and content digest
    changed (the content digest to one of the version, so that each release is new content)."""
    shutil.copyfile(base, path)
    connection = sqlite3.connect(path)
    with connection:
        connection.execute("UPDATE bundle_info SET value = ? WHERE key = 'release_version'", (version,))
        connection.execute("UPDATE bundle_info SET value = ? WHERE key = 'content_digest'", (hashlib.sha256(version.encode()).hexdigest(),))
    connection.close()
    return path


def bundle_schema(path):
    """The bundle schema of the SQLite file at `path` (its user_version)."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return connection.execute("PRAGMA user_version").fetchone()[0]
    finally:
        connection.close()


def sha256_file(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for piece in iter(lambda: file.read(1 << 20), b""):
            digest.update(piece)
    return digest.hexdigest()


def read_signing_key(path):
    """The private key of a `digno keygen` file: a heading line, then 32 bytes in base64."""
    try:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    except ImportError as error:
        raise RuntimeError("Python's cryptography is missing: install it (Debian: apt-get install python3-cryptography); .ci/run does") from error
    with open(path) as file:
        lines = file.read().splitlines()
    return Ed25519PrivateKey.from_private_bytes(base64.b64decode(lines[1]))


def sign_head(key_path, head):
    """A head signed as digno publish signs it (DSSE), written here independently of the Swift
    code, for heads digno publish will not write: expired, for another schema."""
    key = read_signing_key(key_path)  # first: it says what to install when cryptography is missing
    from cryptography.hazmat.primitives import serialization
    payload = json.dumps(head, sort_keys=True, separators=(",", ":")).encode()
    signing_input = b"DSSEv1 %d %s %d " % (len(PAYLOAD_TYPE), PAYLOAD_TYPE.encode(), len(payload)) + payload
    public = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    envelope = {"payload": base64.b64encode(payload).decode(), "payloadType": PAYLOAD_TYPE,
                "signatures": [{"keyid": hashlib.sha256(public).hexdigest(), "sig": base64.b64encode(key.sign(signing_input)).decode()}]}
    return json.dumps(envelope, sort_keys=True).encode()


def verified_payload(envelope_bytes):
    """The payload of a head, unverified (the tests read what digno publish wrote)."""
    return json.loads(base64.b64decode(json.loads(envelope_bytes)["payload"]))
