#!/usr/bin/env python3
"""Benchmarks of `digno preview` (docs/BENCHMARKS.md, "The preview"), each against a peer run
side by side in the same run, as a ratio.

  python3 scripts/bench-preview.py server --content DIR [--digno BIN] [--requests 2000]
      A screen rendered by the preview: the latency of GET requests (one keep-alive
      connection, one at a time) for Etusivu, Deling Group and a sample of product and recipe
      screens, and separately for list pages (the first and the last of each list). Peer: nginx (Debian's) serving the very
      same pages as static files, requested the same way, interleaved.

  python3 scripts/bench-preview.py save-to-visible --content DIR [--edit name|summary] [--digno BIN] [--runs 5]
      From a product file saved to its new name (which moves it in its list: alternately to
      the end and back) or its new summary (which keeps its place) shown in Chromium
      (Selenium, as in Tests/Browser), on the product's screen. Peer: `digno build` of the same folder, timed
      between the runs.

  python3 scripts/bench-preview.py photo-to-visible --content DIR --photos DIR [--digno BIN] [--runs 5]
      From a product's first picture replaced by a camera photo (each run another one of DIR,
      so that none is in the rendition cache) to its stand-in (its embedded thumbnail, or a
      placeholder) and then its rendition shown, decoded, on the product's screen in
      Chromium. Peer: `digno build` of the same folder, timed between the
      runs (its renditions all in the cache by then).

BIN defaults to .build/release/digno. The content folder is copied, never edited in place,
into a folder of its own, which holds its rendition cache: each run starts with none.
"""

import argparse
import http.client
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start_preview(digno, content):
    process = subprocess.Popen([digno, "preview", "--content", content, "--port", "0", "--today", "2026-11-22"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    started = time.monotonic()
    for line in process.stdout:
        found = re.search(r" at http://127\.0\.0\.1:(\d+)/ ", line)
        if found:
            print("preview ready in %.1f s (first build included)" % (time.monotonic() - started), file=sys.stderr)
            process.log = []
            threading.Thread(target=lambda: [process.log.append(line.rstrip()) for line in process.stdout], daemon=True).start()
            return process, int(found.group(1))
    raise RuntimeError("digno preview did not start")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def timed_get(connection, path, host):
    started = time.perf_counter()
    connection.request("GET", path, headers={"Host": host})
    response = connection.getresponse()
    body = response.read()
    elapsed = time.perf_counter() - started
    if response.status != 200:
        raise RuntimeError("%s: %d" % (path, response.status))
    return elapsed, body


def server(arguments):
    content = copy(arguments.content)
    process, port = start_preview(arguments.digno, content)
    host = "127.0.0.1:%d" % port
    products = sorted(name[:-4] for name in os.listdir(os.path.join(content, "products")) if name.endswith(".xml"))
    recipes = sorted(name[:-4] for name in os.listdir(os.path.join(content, "recipes")) if name.endswith(".xml"))
    sample = random.Random(7)
    screens = ["/", "/company"] + ["/products/" + sample.choice(products) for _ in range(100)] + \
              ["/recipes/" + sample.choice(recipes) for _ in range(100)]
    screens = list(dict.fromkeys(screens))
    # The lists' first pages, and their last (50 rows a page), where an OFFSET would cost most.
    last = lambda count: max(1, (count + 49) // 50)
    retailers = len([name for name in os.listdir(os.path.join(content, "retailers")) if name.endswith(".xml")])
    lists = ["/products", "/recipes", "/retailers", "/products?page=%d" % last(len(products)),
             "/recipes?page=%d" % last(len(recipes)), "/retailers?page=%d" % last(retailers)]

    # The same bytes as static files for nginx.
    site = tempfile.mkdtemp(prefix="bench-preview-site-")
    os.chmod(site, 0o755)  # nginx's workers run as another user
    preview = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    names = {}
    for index, path in enumerate(screens + lists):
        _, body = timed_get(preview, path, host)
        names[path] = "/page-%d.html" % index
        with open(site + names[path], "wb") as file:
            file.write(body)
    nginx_port = port + 1
    configuration = os.path.join(site, "nginx.conf")
    with open(configuration, "w") as file:
        file.write("""daemon off; worker_processes 1; pid %(site)s/nginx.pid; error_log %(site)s/error.log;
events { worker_connections 64; }
http { access_log off; types { text/html html; }
  server { listen 127.0.0.1:%(port)d; root %(site)s; keepalive_requests 100000; } }
""" % {"site": site, "port": nginx_port})
    nginx = subprocess.Popen(["nginx", "-c", configuration, "-p", site])
    time.sleep(0.5)
    peer = http.client.HTTPConnection("127.0.0.1", nginx_port, timeout=120)

    def run(paths, rounds):
        ours, theirs = [], []
        for _ in range(rounds):
            for path in paths:
                ours.append(timed_get(preview, path, host)[0])
                theirs.append(timed_get(peer, names[path], host)[0])
        return ours, theirs

    try:
        run(screens, 1)  # warm both
        rounds = max(1, arguments.requests // len(screens))
        ours, theirs = run(screens, rounds)
        report("screens (Etusivu, Deling Group, %d products and recipes), %d requests each" % (len(screens) - 2, len(ours)), ours, theirs)
        ours, theirs = run(lists, max(1, arguments.requests // len(lists)))
        sizes = ", ".join("%s %.0f KB" % (path, os.path.getsize(site + names[path]) / 1e3) for path in lists)
        report("list pages (%s), %d requests each" % (sizes, len(ours)), ours, theirs)
    finally:
        nginx.terminate()
        process.send_signal(2)
        process.wait(30)
        shutil.rmtree(site, ignore_errors=True)
        shutil.rmtree(content, ignore_errors=True)


def report(title, ours, theirs):
    print(title)
    for name, values in (("digno preview", ours), ("nginx, the same bytes", theirs)):
        print("  %-22s p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms" % (
            name, percentile(values, 0.5) * 1000, percentile(values, 0.99) * 1000, max(values) * 1000))
    print("  ratio at p99: %.1f" % (percentile(ours, 0.99) / percentile(theirs, 0.99)))


def chromium():
    """Chromium under Selenium, as Tests/Browser starts it."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1000,1000"]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def timed_build(digno, content, output):
    """Seconds of a `digno build` of `content`."""
    started = time.monotonic()
    subprocess.run([digno, "build", "--quiet", "--content", content, "--output", output + "/catalog.sqlite"], check=True)
    return time.monotonic() - started


def seconds_until(condition, since, what):
    """Seconds from `since` until `condition()` holds (asked every 5 ms; an exception is a no)."""
    while True:
        try:
            if condition():
                return time.monotonic() - since
        except Exception:
            pass
        if time.monotonic() - since > 60:
            raise RuntimeError(what + " never showed")
        time.sleep(0.005)


def stop(browser, process, *folders):
    browser.quit()
    process.send_signal(2)
    process.wait(30)
    for folder in folders:
        shutil.rmtree(os.path.dirname(folder) if os.path.basename(folder) == "content" else folder, ignore_errors=True)


# Notes in window.dignoShownAt the wall-clock time (ms) of the first animation frame after the
# element at arguments[0] shows the text arguments[1]; the page's body is replaced whole by an
# update in place, so the whole document is observed.
SHOWN_AT = """
const [selector, text] = arguments;
window.dignoShownAt = null;
if (window.dignoObserver) window.dignoObserver.disconnect();
window.dignoObserver = new MutationObserver(() => {
  const element = document.querySelector(selector);
  if (window.dignoShownAt === null && element && element.textContent === text) {
    window.dignoShownAt = undefined;
    requestAnimationFrame(() => { window.dignoShownAt = Date.now(); });
  }
});
window.dignoObserver.observe(document.documentElement, {subtree: true, childList: true, characterData: true});
"""


def save_to_visible(arguments):
    from selenium.webdriver.common.by import By

    content = copy(arguments.content)
    process, port = start_preview(arguments.digno, content)
    browser = chromium()
    products = sorted(name for name in os.listdir(os.path.join(content, "products")) if name.endswith(".xml"))
    # A name edit moves the product in its list: the first product takes the last one's place
    # and back. A summary edit keeps its place.
    product = products[0]
    path = os.path.join(content, "products", product)
    original = open(path, encoding="utf-8").read()
    if arguments.edit == "name":
        # The product's name in the default language (`<name>` or `<name translate="no">`).
        found = re.search(r"<name(?: translate=\"no\")?>([^<]*)</name>", original)
        selector = "main h1"
    else:
        found = re.search(r"<summary>([^<]*)</summary>", original)
        selector = "main p.lead"
    name = found.group(1)
    browser.get("http://127.0.0.1:%d/products/%s" % (port, product[:-4]))
    ours, polled, builds = [], [], []
    output = tempfile.mkdtemp(prefix="bench-preview-build-")
    try:
        for run in range(arguments.runs):
            # Alternately at the end of the list (after every other name) and back near its start.
            shown = ("Ööö %s %d" % (name, run)) if arguments.edit == "name" and run % 2 == 0 else "%s %d" % (name, run)
            # The page notes the wall-clock time of the first frame that shows the new text (a
            # mutation observer, then the next animation frame): asking Chromium over WebDriver
            # every 5 ms adds that asking's own delay, 10 to 30 ms.
            browser.execute_script(SHOWN_AT, selector, shown)
            temporary = path + ".saving"
            with open(temporary, "w", encoding="utf-8") as file:
                file.write(original[:found.start(1)] + shown + original[found.end(1):])
            saved, saved_wall = time.monotonic(), time.time()
            os.replace(temporary, path)
            polled.append(seconds_until(lambda: browser.find_element(By.CSS_SELECTOR, selector).text == shown, saved, "the change"))
            seconds_until(lambda: browser.execute_script("return window.dignoShownAt") is not None, saved, "the frame")
            ours.append(browser.execute_script("return window.dignoShownAt") / 1000 - saved_wall)
            time.sleep(0.5)
            builds.append(timed_build(arguments.digno, content, output))
        print("save to visible change, %d runs: median %.0f ms, max %.0f ms (asked every 5 ms over WebDriver: median %.0f ms)" % (
            len(ours), statistics.median(ours) * 1000, max(ours) * 1000, statistics.median(polled) * 1000))
        print("digno build of the same folder: median %.0f ms; ratio %.2f" % (
            statistics.median(builds) * 1000, statistics.median(ours) / statistics.median(builds)))
        print("each run, save to visible: " + ", ".join("%.0f" % (value * 1000) for value in ours) + " ms")
        print("the preview's builds: " + ", ".join(re.findall(r"in (\d+) ms", " ".join(process.log))) + " ms")
    finally:
        stop(browser, process, content, output)


def photo_to_visible(arguments):
    photos = sorted(os.path.join(arguments.photos, name) for name in os.listdir(arguments.photos) if name.startswith("photo-"))
    content = copy(arguments.content)
    process, port = start_preview(arguments.digno, content)
    browser = chromium()
    product = sorted(name for name in os.listdir(os.path.join(content, "products")) if name.endswith(".xml"))[0]
    text = open(os.path.join(content, "products", product), encoding="utf-8").read()
    picture = os.path.join(content, re.search(r'<images>\s*<image src="([^"]+)"', text).group(1))
    browser.get("http://127.0.0.1:%d/products/%s" % (port, product[:-4]))

    def shown():
        return browser.execute_script(
            "const image = document.querySelector('main img.picture');"
            "return image && image.complete && image.naturalWidth > 0 ? image.currentSrc : null;")

    def made(since):
        return any(line.startswith("made the renditions of") for line in process.log[since:])

    first, ours, builds, kinds = [], [], [], []
    output = tempfile.mkdtemp(prefix="bench-preview-build-")
    try:
        for run in range(arguments.runs):
            before = shown()
            said = len(process.log)
            temporary = picture + ".saving"
            shutil.copyfile(photos[run % len(photos)], temporary)
            saved = time.monotonic()
            os.replace(temporary, picture)
            # First its stand-in (the thumbnail, or the placeholder's words), then its rendition,
            # once the preview has made the renditions and built again.
            first.append(seconds_until(lambda: shown() not in (None, before), saved, "the stand-in"))
            stand_in = shown()
            ours.append(seconds_until(lambda: made(said) and shown() not in (None, before, stand_in), saved, "the rendition"))
            kinds.append("thumbnail" if any("shown by its thumbnail" in line for line in process.log[said:]) else
                         "placeholder" if any("shown by a placeholder" in line for line in process.log[said:]) else "none")
            time.sleep(0.5)
            builds.append(timed_build(arguments.digno, content, output))
        print("photo replaced to its stand-in shown, %d runs: median %.0f ms, max %.0f ms" % (
            len(first), statistics.median(first) * 1000, max(first) * 1000))
        print("photo replaced to its rendition shown, %d runs: median %.0f ms, max %.0f ms" % (
            len(ours), statistics.median(ours) * 1000, max(ours) * 1000))
        print("digno build of the same folder: median %.0f ms" % (statistics.median(builds) * 1000))
        print("each run, stand-in / rendition: " + ", ".join("%.0f / %.0f" % (a * 1000, b * 1000) for a, b in zip(first, ours)) + " ms ("
              + ", ".join("%s: %s" % (os.path.basename(photos[run % len(photos)]), kinds[run]) for run in range(arguments.runs)) + ")")
    finally:
        stop(browser, process, content, output)


def copy(folder):
    """A copy of `folder` as `content` in a folder of its own, which holds its rendition cache
    too (`.digno-cache`, beside the content folder): each run starts with none."""
    target = os.path.join(tempfile.mkdtemp(prefix="bench-preview-"), "content")
    shutil.copytree(folder, target)
    return target


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["server", "save-to-visible", "photo-to-visible"])
    parser.add_argument("--content", required=True)
    parser.add_argument("--digno", default=os.path.join(REPOSITORY, ".build", "release", "digno"))
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--edit", choices=["name", "summary"], default="name",
                        help="save-to-visible: the product's name (which moves it in its list) or its summary (which keeps its place)")
    parser.add_argument("--photos", help="photo-to-visible: a folder of photo-* files (scripts/bench-pictures.py makes one)")
    arguments = parser.parse_args()
    {"server": server, "save-to-visible": save_to_visible, "photo-to-visible": photo_to_visible}[arguments.mode](arguments)


if __name__ == "__main__":
    main()
