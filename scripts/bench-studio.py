#!/usr/bin/env python3
"""Benchmarks of `digno studio` (docs/BENCHMARKS.md, "The studio"), each against `digno
validate` of the same content run side by side, as a ratio.

  python3 scripts/bench-studio.py --content DIR [--digno BIN] [--runs 30]

Times, over HTTP from this process (one request at a time on its own connection, as a page's
script asks), a release build's studio over a copy of DIR:
  - the check of a form as typed (POST /_studio/check/…, the summary of a product changed);
  - a form opened (GET /_studio/edit/…) and the overview (GET /_studio/);
  - the names filtered as typed (GET /_studio/results?q=… for each prefix of a name);
  - a save (POST /_studio/save/…) to its file written, and then to the preview's screen showing it;
  - the studio ready (started to its address said), and its peak memory against the preview's;
  - the translations' coverage table (GET /_studio/translations, and ?all=1);
  - with --photo FILE: the photo dropped on a product's pictures (POST /_studio/upload/…) to its
    stand-in received, upright (GET of the answer's stand-in);
  - with --git: the folder made a git repository, and a form's save then saved to git
    (POST /_studio/git/commit), each commit timed.
Peer: `digno validate DIR` timed between the runs. BIN defaults to .build/release/digno.
"""

import argparse
import http.client
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.parse


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def start(digno, command, content):
    # In a session of its own, so that Ctrl-C reaches the command under /usr/bin/time.
    process = subprocess.Popen(["/usr/bin/time", "-v", digno, command, "--content", content, "--port", "0", "--today", "2026-11-22"]
                               + (["--no-browser"] if command == "studio" else []),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    started = time.monotonic()
    address = None
    for line in process.stdout:
        found = re.search(r" at (http://127\.0\.0\.1:(\d+)/)", line)
        if found:
            address = (found.group(1), int(found.group(2)))
            break
    ready = time.monotonic() - started
    threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
    return process, address, ready


def stop(process):
    os.killpg(process.pid, 2)
    process.wait(timeout=60)
    errors = process.stderr.read()
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", errors)
    return int(found.group(1)) / 1024 if found else float("nan")


def request(port, method, target, body=None, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    all_headers = {"Host": "127.0.0.1:%d" % port}
    all_headers.update(headers or {})
    started = time.monotonic()
    connection.request(method, target, body=body, headers=all_headers)
    response = connection.getresponse()
    data = response.read()
    elapsed = time.monotonic() - started
    connection.close()
    return response.status, data.decode("utf-8", "replace"), elapsed


def fields(page):
    page = re.sub(r"<template.*?</template>", "", page, flags=re.S)
    found = []
    for match in re.finditer(r'<input[^>]* name="([^"]*)"[^>]*? value="([^"]*)"|<textarea[^>]* name="([^"]*)"[^>]*>([^<]*)</textarea>', page):
        name, value = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        for entity, text in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&#39;", "'"), ("&amp;", "&")):
            value = value.replace(entity, text)
        if not name.startswith(("c:", "d:")):
            found.append((name, value))
    return found


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("--content", required=True)
    arguments.add_argument("--digno", default=".build/release/digno")
    arguments.add_argument("--runs", type=int, default=30)
    arguments.add_argument("--photo", help="a phone photo to drop on a product's pictures")
    arguments.add_argument("--git", action="store_true", help="time saves to git (the copy made a repository)")
    options = arguments.parse_args()
    folder = tempfile.mkdtemp(prefix="digno-bench-studio-")
    content = os.path.join(folder, "content")
    shutil.copytree(options.content, content)
    if options.git:
        for command in (["init", "--quiet", "--initial-branch=main"], ["config", "user.name", "Bench"], ["config", "user.email", "bench@example.com"],
                        ["add", "--all"], ["commit", "--quiet", "-m", "content"]):
            subprocess.run(["git"] + command, cwd=content, check=True)
    validates = []

    def validate():
        started = time.monotonic()
        subprocess.run([options.digno, "validate", content, "--today", "2026-11-22"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        validates.append(time.monotonic() - started)

    validate()
    process, (address, port), ready = start(options.digno, "studio", content)
    validate()
    # A product from the middle of the list, and its form.
    status, overview, _ = request(port, "GET", "/_studio/")
    products = re.findall(r'href="/_studio/edit/product/([a-z0-9-]+)"', overview)
    product = products[len(products) // 2]
    status, page, _ = request(port, "GET", "/_studio/edit/product/" + product)
    token = re.search(r'data-token="([^"]+)"', page).group(1)
    form = fields(page)
    original = dict(form)["t:summary@fi"]
    headers = {"Origin": address.rstrip("/"), "Content-Type": "application/x-www-form-urlencoded", "X-Studio-Token": token}

    def body(summary):
        return urllib.parse.urlencode([("token", token)] + [(n, summary if n == "t:summary@fi" else v) for n, v in form])

    checks, opens, overviews, filters, saves, shown, tables, photos, commits = [], [], [], [], [], [], [], [], []
    name = re.search(r'<input id="f1" name="t:name@fi"[^>]* value="([^"]*)"', page).group(1)
    for run in range(options.runs):
        _, _, elapsed = request(port, "POST", "/_studio/check/product/" + product, body(original + " " + str(run)), headers)
        checks.append(elapsed)
        _, _, elapsed = request(port, "GET", "/_studio/edit/product/" + products[(run * 7919) % len(products)])
        opens.append(elapsed)
        if run % 3 == 0:
            _, _, elapsed = request(port, "GET", "/_studio/")
            overviews.append(elapsed)
            _, _, elapsed = request(port, "GET", "/_studio/translations" + ("?all=1" if run % 2 else ""))
            tables.append(elapsed)
        prefix = name[: 1 + run % max(1, len(name))]
        _, _, elapsed = request(port, "GET", "/_studio/results?q=" + urllib.parse.quote(prefix))
        filters.append(elapsed)
        if run % 5 == 0:
            validate()
    # Saves: to the file written (the answer), then to the preview's screen showing it.
    for run in range(max(5, options.runs // 5)):
        _, page, _ = request(port, "GET", "/_studio/edit/product/" + product)
        form = fields(page)
        summary = "Tallennettu %d" % run
        started = time.monotonic()
        status, _, elapsed = request(port, "POST", "/_studio/save/product/" + product, body(summary), headers)
        saves.append(elapsed)
        while summary not in request(port, "GET", "/products/" + product)[1]:
            time.sleep(0.005)
        shown.append(time.monotonic() - started)
        if options.git:
            commit = urllib.parse.urlencode([("token", token), ("message", "Summary %d" % run)])
            _, _, elapsed = request(port, "POST", "/_studio/git/commit", commit, headers)
            commits.append(elapsed)
    if options.photo:
        with open(options.photo, "rb") as file:
            photo = file.read()
        upload = {"Origin": address.rstrip("/"), "Content-Type": "application/octet-stream", "X-Studio-Token": token}
        for run in range(max(3, options.runs // 10)):
            started = time.monotonic()
            status, answer, _ = request(port, "POST", "/_studio/upload/product/%s?field=images&name=photo.jpg" % product, photo, upload)
            stand_in = re.search(r'"standIn":"([^"]+)"', answer).group(1).replace("\\/", "/")
            request(port, "GET", stand_in)
            photos.append(time.monotonic() - started)
    studio_memory = stop(process)
    # The preview's peak over the same work: started, a screen asked, the same saves heard.
    preview, (_, preview_port), preview_ready = start(options.digno, "preview", content)
    path = os.path.join(content, "products", product + ".xml")
    for run in range(max(5, options.runs // 5)):
        with open(path, encoding="utf-8") as file:
            text = file.read()
        summary = "Esikatselu %d" % run
        text = re.sub(r"<summary>[^<]*</summary>", "<summary>%s</summary>" % summary, text, count=1)
        with open(path + ".saving", "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(path + ".saving", path)
        while summary not in request(preview_port, "GET", "/products/" + product)[1]:
            time.sleep(0.005)
    preview_memory = stop(preview)
    validate()
    median_validate = statistics.median(validates)
    print("digno validate: median %.0f ms of %d" % (1000 * median_validate, len(validates)))
    for label, values in (("check as typed", checks), ("form opened", opens), ("overview", overviews), ("filtered as typed", filters),
                          ("save to file written", saves), ("save to the preview showing it", shown), ("translations table", tables),
                          ("photo to its stand-in", photos), ("save to git (commit)", commits)):
        if not values:
            continue
        print("%-32s median %6.1f ms  p95 %6.1f ms  (%.3fx validate, p95)" % (label, 1000 * statistics.median(values), 1000 * p95(values),
                                                                           p95(values) / median_validate))
    print("studio ready %.0f ms (%.2fx validate); preview ready %.0f ms" % (1000 * ready, ready / median_validate, 1000 * preview_ready))
    print("peak memory: studio %.0f MB, preview %.0f MB (%.2fx)" % (studio_memory, preview_memory, studio_memory / preview_memory))
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
