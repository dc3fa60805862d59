#!/usr/bin/env python3
"""Times `digno lsp` as an editor drives it, against a full `digno validate` of the same
folder, side by side (docs/BENCHMARKS.md, "The language server"):

- start-up: from `initialize` to the diagnostics of a first keystroke (so one check of the
  whole folder and one keystroke's), the median over --starts servers (default 3);
- a keystroke: from a `didChange` of one file to its new diagnostics, over N keystrokes that
  each make or mend a mistake in one product's summary (so that every one changes what the
  file is told), p50 and p95;
- the server's peak memory (VmHWM);
- a full `digno validate` of the same folder, timed N_VALIDATE times between the keystrokes.

The client offers to watch files for the server, as VS Code's and Neovim's do (with
`--no-watching` it does not, and the server lists the folder and stamps its files at each
keystroke).

    python3 scripts/bench-lsp.py --digno .build/release/digno --content /tmp/bench/content --keystrokes 200

Generate the content with `digno-bench generate --products 4000 --recipes 4000 --retailers 2000
--output /tmp/bench/content` (10,000 entities). Needs nothing but Python 3.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time


class Client:
    def __init__(self, command, cwd):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=cwd)
        self.next_id = 1

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = self.read()
            if message.get("id") == self.next_id and "method" not in message:
                return message

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def read(self):
        length = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit("the server closed its output")
            line = line.strip()
            if not line:
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return json.loads(self.process.stdout.read(length))

    def wait_for_diagnostics(self, uri=None):
        while True:
            message = self.read()
            if message.get("method") == "textDocument/publishDiagnostics" and (uri is None or message["params"]["uri"] == uri):
                return message["params"]

    def peak_memory_kib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--digno", required=True)
    parser.add_argument("--content", required=True)
    parser.add_argument("--keystrokes", type=int, default=200)
    parser.add_argument("--no-watching", action="store_true", help="offer no file watching, as a client without it")
    parser.add_argument("--validations", type=int, default=5)
    parser.add_argument("--starts", type=int, default=3, help="servers started to take the start-up's median")
    arguments = parser.parse_args()
    content = os.path.abspath(arguments.content)
    digno = os.path.abspath(arguments.digno)

    def validate_seconds():
        started = time.monotonic()
        subprocess.run([digno, "validate", content], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.monotonic() - started

    def start():
        """A new server, from `initialize` to the diagnostics of a first keystroke."""
        client = Client([digno, "lsp"], cwd=content)
        started = time.monotonic()
        # As VS Code and Neovim do, the client offers to watch files for the server (which then
        # does not list the folder at each keystroke); --no-watching offers nothing.
        capabilities = {} if arguments.no_watching else {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}}}
        client.request("initialize", {"processId": os.getpid(), "rootUri": "file://" + content, "capabilities": capabilities})
        client.notify("initialized", {})
        # The first check publishes every file with something to say; a folder with nothing
        # publishes nothing, so the first keystroke's answer also ends the start-up.
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "xml", "version": 1, "text": text}})
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": broken}]})
        client.wait_for_diagnostics(uri)
        return client, time.monotonic() - started

    def stop(client):
        client.request("shutdown", None)
        client.notify("exit", None)
        client.process.wait(timeout=30)

    products = sorted(name for name in os.listdir(os.path.join(content, "products")) if name.endswith(".xml"))
    path = os.path.join(content, "products", products[len(products) // 2])
    uri = "file://" + path
    with open(path, encoding="utf-8") as file:
        text = file.read()
    broken = text.replace("<summary>", "<summary>" + "x" * 120, 1)
    # Start-up varies more than a keystroke does: its median over --starts servers, each
    # beside a validate of its own.
    startups, validations = [], []
    for _ in range(arguments.starts - 1):
        client, seconds = start()
        startups.append(seconds)
        stop(client)
        validations.append(validate_seconds())
    client, seconds = start()
    startups.append(seconds)
    startup = statistics.median(startups)

    latencies = []
    for stroke in range(arguments.keystrokes):
        new = text if stroke % 2 == 0 else broken
        sent = time.monotonic()
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": stroke + 3}, "contentChanges": [{"text": new}]})
        client.wait_for_diagnostics(uri)
        latencies.append(time.monotonic() - sent)
        if stroke % max(1, arguments.keystrokes // arguments.validations) == 0:
            validations.append(validate_seconds())
    memory = client.peak_memory_kib()
    stop(client)

    latencies.sort()
    validate = statistics.median(validations)
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(json.dumps({
        "startup_s": round(startup, 3), "startups_s": [round(value, 3) for value in startups], "keystroke_p50_s": round(statistics.median(latencies), 4), "keystroke_p95_s": round(p95, 4),
        "validate_median_s": round(validate, 3), "keystroke_p95_over_validate": round(p95 / validate, 3),
        "startup_over_validate": round(startup / validate, 3), "peak_memory_mib": round(memory / 1024, 1),
    }, indent=2))


if __name__ == "__main__":
    sys.exit(main())
