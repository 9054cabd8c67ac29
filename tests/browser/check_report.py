#!/usr/bin/env python3
"""Renders a gpuscout HTML report in headless Chromium and checks that it drew its charts.

Python 3.11 standard library only: drives Debian's chromedriver over the W3C WebDriver HTTP
protocol with urllib (no selenium, no playwright).

Usage:
  check_report.py REPORT.html [--screenshot OUT.png] [--chart-shots DIR]
                  [--expect-charts N] [--expect-empty M]
                  [--chromedriver PATH] [--chromium PATH] [--timeout S]

Exit status: 0 when every check passed, 1 when one failed (each failure is printed as a "FAIL:" line,
then a final "FAIL" line), 2 on bad usage, 77 (CTest's SKIP_RETURN_CODE) when chromium or chromedriver
is not installed, unless the environment variable CI is "true": in CI a missing browser is a failure.

Page contract (what `gpuscout report --html` writes and this script relies on)
------------------------------------------------------------------------------
* The report is one self-contained file: Chart.js and all data are inlined; it loads nothing over
  the network (no http(s) script/link/img/iframe/... and no resource that is not file:, data:,
  blob: or about:).
* Each chart is  <figure class="chart" data-chart="KIND" id="...">  holding exactly one <canvas>
  drawn through a 2D context (Chart.js's default). KIND names the chart type (e.g. "throughput");
  several figures may share a KIND.
* A chart without data (e.g. no GPU on the recorded machine) is
  <figure class="chart empty" data-chart="KIND">  holding a  <p class="empty-note">  with a
  non-empty text saying why, and no canvas.
* Once every chart is drawn (Chart.js with animation: false, so drawing is synchronous) the page sets
    window.gpuscoutReport = {done: true, charts: <number of charts drawn>, errors: [...]}
  where errors holds a string per error the page caught (its window.onerror / 'error' listener,
  installed before any other script). The page never leaves done unset: a report whose script throws
  before setting done fails this check with "never set window.gpuscoutReport.done".
* The page writes nothing at console.error level: chromedriver reports console.error as SEVERE,
  the same level as an uncaught exception or a failed resource load, and any SEVERE entry fails.

Checks (done by this script through /execute/sync, not by trusting the page's own count)
-----------------------------------------------------------------------------------------
* document.readyState is "complete" and window.gpuscoutReport.done === true (bounded wait);
* every figure.chart that is not .empty holds one canvas, with width and height > 0, laid out
  (client size > 0), whose getImageData() over the whole canvas has more than MIN_DRAWN_PERCENT
  of its pixels not fully transparent -- i.e. something was drawn -- and, where the page uses Chart.js,
  at least one data mark (a point, or a bar at least 1 px long) that Chart.js placed inside the plot
  area (Chart.getChart(canvas)): axes and grid lines alone fail;
* every figure.chart.empty has a non-empty .empty-note text;
* each --expect-text string appears in document.body.innerText (a name like "<script>" shows as text);
* the counts equal --expect-charts / --expect-empty when given, and gpuscoutReport.charts equals
  the number of non-empty figures found;
* window.gpuscoutReport.errors is an empty array;
* no browser log entry of level SEVERE (uncaught exceptions, console.error, failed loads). The log
  comes from chromedriver's POST /session/{id}/se/log {"type": "browser"} (chromedriver 156
  answers it, and also the legacy POST /session/{id}/log; both drain the buffer). Should a
  chromedriver answer neither, the script says so and relies on gpuscoutReport.errors alone;
* performance.getEntriesByType('resource') holds only file:/data:/blob:/about: URLs, and no element
  references an external URL (script/link/img/iframe/source/video/audio/embed/object).
* at a 400 px window (a phone) nothing is wider than the window, outside a box that scrolls on its own
  (<pre>); where the page holds Chinese text, two different characters draw differently in the page's font
  (boxes of a missing CJK font draw alike); --expect-lang checks <html lang>.

--phone-screenshot writes the 400 px view. --screenshot writes a full-page PNG (the window grows to the page's height, capped at 16000 px);
--chart-shots DIR writes DIR/report-KIND.png, an element screenshot of the first figure of each
KIND (the first one drawn, when the KIND has both drawn and empty figures). Screenshots are taken
even when a check failed, to help debugging; they never change the verdict.

Every wait is bounded; the whole run is bounded by --timeout (default 90 s), after which the
session is quit and chromedriver (with the browser it started) is killed.
"""
import argparse
import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

EXIT_OK, EXIT_FAIL, EXIT_SKIP = 0, 1, 77
MIN_DRAWN_PERCENT = 1.0          # a drawn chart (axes, grid, labels, data) covers well above this
MAX_SCREENSHOT_HEIGHT = 16000    # px; Chromium refuses much taller surfaces
WINDOW_WIDTH, WINDOW_HEIGHT = 1280, 2000
PHONE_WIDTH = 400               # px: a phone held upright; nothing may run off the side at this width
POLL_S = 0.1
DONE_WAIT_S = 30                 # bound on the wait for gpuscoutReport.done once the page has loaded
ERROR_GRACE_S = 3                # ... cut short this long after the page, loaded, recorded a script error
CLEANUP_HTTP_S = 5               # bound on DELETE /session during cleanup
ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf"   # W3C web element identifier
LOCAL_SCHEMES = ("file:", "data:", "blob:", "about:")

CHROMIUM_CANDIDATES = (
    # Debian's /usr/bin/chromium is a shell wrapper that sources /etc/chromium.d/* (adds flags such as
    # --enable-gpu-rasterization and --load-extension=...); the binary behind it is run directly so
    # the browser gets only the flags below.
    "/usr/lib/chromium/chromium",
    "chromium", "chromium-browser", "google-chrome", "google-chrome-stable",
)
CHROMEDRIVER_CANDIDATES = ("chromedriver", "/usr/lib/chromium/chromedriver")

CHROME_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    f"--window-size={WINDOW_WIDTH},{WINDOW_HEIGHT}",
    "--hide-scrollbars", "--force-device-scale-factor=1", "--force-color-profile=srgb",
    "--disable-extensions", "--disable-background-networking", "--no-first-run",
    "--no-default-browser-check",
    # No --allow-file-access-from-files: the report must be self-contained, so a report that tries to
    # fetch a sibling file fails here rather than in the user's browser.
]

# One call gathers everything the checks need, straight from the DOM and the canvases.
INSPECT_JS = r"""
const out = {figures: [], resources: [], external: [], report: null};
const r = window.gpuscoutReport;
if (r !== undefined && r !== null) {
  out.report = {done: r.done, charts: r.charts,
                errors: Array.isArray(r.errors) ? r.errors.map(String)
                                                : (r.errors === undefined ? null : 'not-an-array')};
}
document.querySelectorAll('figure.chart').forEach((f, i) => {
  const fig = {index: i, kind: f.getAttribute('data-chart') || '', id: f.id || '',
               empty: f.classList.contains('empty'), canvases: 0};
  if (fig.empty) {
    const n = f.querySelector('.empty-note');
    fig.note = n ? n.textContent.trim() : null;
  }
  const canvases = f.querySelectorAll('canvas');
  fig.canvases = canvases.length;
  if (canvases.length > 0) {
    const c = canvases[0];
    fig.width = c.width; fig.height = c.height;
    fig.clientWidth = c.clientWidth; fig.clientHeight = c.clientHeight;
    if (c.width > 0 && c.height > 0) {
      try {
        const ctx = c.getContext('2d');
        if (!ctx) {
          fig.pixelError = 'the canvas has no 2D context (WebGL?)';
        } else {
          const d = ctx.getImageData(0, 0, c.width, c.height).data;
          let n = 0;
          for (let k = 3; k < d.length; k += 4) if (d[k] !== 0) n++;
          fig.drawn = n; fig.pixels = c.width * c.height;
        }
      } catch (e) {
        fig.pixelError = String(e);
      }
    }
    // Pixels alone cannot tell axes from data: ask Chart.js where it placed each data mark.
    if (window.Chart && typeof Chart.getChart === 'function') {
      const ch = Chart.getChart(c);
      if (ch) {
        const a = ch.chartArea;
        let marks = 0;
        ch.getSortedVisibleDatasetMetas().forEach(m => m.data.forEach(el => {
          const p = el.getProps(['x', 'y', 'base'], true);
          if (!isFinite(p.x) || !isFinite(p.y)) return;
          if (p.x < a.left - 1 || p.x > a.right + 1 || p.y < a.top - 1 || p.y > a.bottom + 1) return;
          if (m.type === 'bar') {
            const size = m.indexAxis === 'y' ? Math.abs(p.x - p.base) : Math.abs(p.y - p.base);
            if (!(size >= 1)) return;
          }
          marks++;
        }));
        fig.marks = marks;
      }
    }
  }
  out.figures.push(fig);
});
out.resources = performance.getEntriesByType('resource').map(e => e.name);
out.text = document.body ? document.body.innerText : '';
const attrs = {script: 'src', link: 'href', img: 'src', iframe: 'src', source: 'src', video: 'src',
               audio: 'src', embed: 'src', object: 'data', track: 'src'};
for (const [tag, attr] of Object.entries(attrs)) {
  document.querySelectorAll(tag + '[' + attr + ']').forEach(el => {
    let url;
    try { url = new URL(el.getAttribute(attr), document.baseURI).href; } catch (e) { url = el.getAttribute(attr); }
    out.external.push(tag + ' ' + attr + '=' + url);
  });
}
return out;
"""

# At phone width: is anything wider than the window (outside a box that scrolls on its own, like <pre>)? And does
# Chinese text render as glyphs (two different characters draw differently) rather than as boxes of a missing font?
NARROW_JS = r"""
const width = document.documentElement.clientWidth;
const out = {width: width, scrollWidth: document.documentElement.scrollWidth, overflowing: [], lang: document.documentElement.lang};
const scrolls = el => { for (let p = el.parentElement; p; p = p.parentElement) {
  const o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll' || o === 'hidden') return true; } return false; };
document.querySelectorAll('body *').forEach(el => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.right <= width + 1 || scrolls(el)) return;
  if (out.overflowing.length < 8) {
    const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : '');
    out.overflowing.push(name + ' right=' + Math.round(r.right) + ' "' + (el.textContent || '').trim().slice(0, 50) + '"');
  }
});
const text = document.body ? document.body.innerText : '';
out.cjk = /[\u4e00-\u9fff]/.test(text);
if (out.cjk) {
  const family = getComputedStyle(document.body).fontFamily;
  const draw = ch => { const c = document.createElement('canvas'); c.width = 48; c.height = 48;
    const x = c.getContext('2d'); x.font = '40px ' + family; x.fillText(ch, 2, 40);
    return Array.from(x.getImageData(0, 0, 48, 48).data).join(','); };
  out.glyphs = draw('中') !== draw('国');
  out.family = family;
}
return out;
"""

STATE_JS = r"""
const r = window.gpuscoutReport;
return {ready: document.readyState,
        report: (r === undefined || r === null) ? null : {done: r.done, charts: r.charts,
                 errors: Array.isArray(r.errors) ? r.errors.map(String) : null}};
"""


class Timeout(BaseException):
    """Raised by the --timeout alarm. A BaseException so that best-effort `except Exception` blocks
    cannot swallow it."""


class CheckError(Exception):
    """A failure that ends the check early (the browser could not start, the page never finished)."""


class WebDriverError(Exception):
    def __init__(self, status, error, message):
        super().__init__(f"{error}: {message}" if error else message)
        self.status, self.error = status, error


class Deadline:
    def __init__(self, seconds):
        self.end = time.monotonic() + seconds

    def left(self):
        return self.end - time.monotonic()


def find_program(explicit, candidates):
    if explicit:
        path = shutil.which(explicit) if os.sep not in explicit else explicit
        return path if path and os.path.isfile(path) and os.access(path, os.X_OK) else None
    for name in candidates:
        path = shutil.which(name) if os.sep not in name else name
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ChromeDriver:
    """A chromedriver process on a free localhost port and one WebDriver session on it."""

    def __init__(self, path, deadline):
        self.path, self.deadline = path, deadline
        self.proc = None
        self.log = None
        self.base = None
        self.session = None
        self.tmp = None
        # Never route localhost through an http_proxy from the environment.
        self.opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    # --- process -------------------------------------------------------------------------------
    def start(self, ready_within=20.0):
        self.log = tempfile.TemporaryFile()
        # chromedriver's profile (scoped_dir*) and Chromium's singleton/shared-memory directories go
        # under $TMPDIR and are not all removed on quit (nor ever, after a kill): give them a private
        # directory, removed in stop().
        self.tmp = tempfile.mkdtemp(prefix="gpuscout-browser-")
        env = dict(os.environ, TMPDIR=self.tmp)
        for _attempt in range(3):          # a port taken between free_port() and bind: try another
            port = free_port()
            self.base = f"http://127.0.0.1:{port}"
            self.proc = subprocess.Popen(
                [self.path, f"--port={port}"], stdin=subprocess.DEVNULL, stdout=self.log,
                stderr=subprocess.STDOUT, env=env, start_new_session=True)   # own process group: kill it all
            end = time.monotonic() + min(ready_within, max(1.0, self.deadline.left()))
            while time.monotonic() < end and self.proc.poll() is None:
                try:
                    status = self.request("GET", "/status", timeout=2)
                    if status.get("ready"):
                        return
                except (OSError, WebDriverError, ValueError):
                    pass
                time.sleep(POLL_S)
            if self.proc.poll() is None:
                raise CheckError(f"chromedriver {self.path} did not report ready on /status within "
                                 f"{ready_within:.0f} s{self.log_tail()}")
            self.proc.wait()
        raise CheckError(f"chromedriver {self.path} exited at start (status {self.proc.returncode})"
                         f"{self.log_tail()}")

    def log_tail(self, limit=1500):
        if self.log is None:
            return ""
        try:
            self.log.seek(0)
            text = self.log.read().decode("utf-8", "replace").strip()
        except OSError:
            return ""
        return f"\n--- chromedriver output (tail) ---\n{text[-limit:]}" if text else ""

    def stop(self):
        """Quits the session and ends chromedriver and the browser it started. Bounded; never raises."""
        if self.session and self.proc and self.proc.poll() is None:
            try:
                self.request("DELETE", f"/session/{self.session}", timeout=CLEANUP_HTTP_S)
            except Exception:   # noqa: BLE001 -- cleanup is best effort
                pass
        self.session = None
        if self.proc:
            for sig, wait_s in ((signal.SIGTERM, 3), (signal.SIGKILL, 3)):
                try:
                    os.killpg(self.proc.pid, sig)   # the group holds chromedriver and the browser
                except (ProcessLookupError, PermissionError):
                    pass
                try:
                    self.proc.wait(timeout=wait_s)
                    break
                except subprocess.TimeoutExpired:
                    continue
            if self.proc.poll() is None:
                self.proc.kill()
            # Reap the group's stragglers (browser helpers that outlived chromedriver).
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if self.log:
            self.log.close()
            self.log = None
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)
            self.tmp = None

    # --- protocol ------------------------------------------------------------------------------
    def request(self, method, path, body=None, timeout=None):
        if timeout is None:
            timeout = max(1.0, self.deadline.left())
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json; charset=utf-8"})
        try:
            with self.opener.open(req, timeout=timeout) as resp:
                payload = json.loads(resp.read() or b"{}")
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                value = json.loads(raw).get("value", {})
            except ValueError:
                value = {"message": raw.decode("utf-8", "replace")[:500]}
            if not isinstance(value, dict):
                value = {"message": str(value)}
            raise WebDriverError(e.code, value.get("error", ""),
                                 str(value.get("message", "")).split("\n")[0]) from None
        return payload.get("value")

    def session_request(self, method, path, body=None, timeout=None):
        return self.request(method, f"/session/{self.session}{path}", body, timeout)

    def new_session(self, chromium):
        budget_ms = int(max(1.0, self.deadline.left()) * 1000)
        caps = {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": CHROME_ARGS},
            "goog:loggingPrefs": {"browser": "ALL"},
            "timeouts": {"pageLoad": budget_ms, "script": budget_ms, "implicit": 0},
        }
        try:
            value = self.request("POST", "/session", {"capabilities": {"alwaysMatch": caps}})
        except WebDriverError as e:
            raise CheckError(f"could not start {chromium} through chromedriver: {e}{self.log_tail()}")
        self.session = value["sessionId"]
        return value.get("capabilities", {})

    def execute(self, script, *args, timeout=None):
        return self.session_request("POST", "/execute/sync", {"script": script, "args": list(args)}, timeout)

    def browser_log(self):
        """The browser log entries since the last call (reading drains them), or None when this
        chromedriver serves no log endpoint."""
        for path in ("/se/log", "/log"):
            try:
                return self.session_request("POST", path, {"type": "browser"}, timeout=10) or []
            except WebDriverError as e:
                if e.status in (404, 405) or e.error in ("unknown command", "unknown method"):
                    continue
                raise
        return None


def fmt_report(report):
    return json.dumps(report, sort_keys=True) if report is not None else "undefined"


def write_png(path, b64):
    """Writes the PNG and returns its (width, height), read from the IHDR chunk."""
    data = base64.b64decode(b64)
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
        raise ValueError("the screenshot is not a PNG")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def take_screenshots(driver, figures, args, notes):
    """Best effort: a screenshot that cannot be taken is reported as a problem, not raised."""
    if args.screenshot:
        try:
            # The content's height (html's box, body's scrollHeight), not the viewport's, plus the
            # window's chrome (outer - inner height: 143 px in Chromium 156's headless mode).
            dims = driver.execute("return [Math.ceil(document.documentElement.getBoundingClientRect().height), "
                                  "document.body ? document.body.scrollHeight : 0, "
                                  "window.outerHeight - window.innerHeight]", timeout=10)
            height = min(MAX_SCREENSHOT_HEIGHT, max(dims[0], dims[1]) + max(0, dims[2]))
            driver.session_request("POST", "/window/rect", {"width": WINDOW_WIDTH, "height": max(height, 200)},
                                   timeout=10)
            # Let a resize (responsive charts redraw synchronously with animation off) reach the screen.
            # (WebDriver awaits a returned promise.)
            driver.execute("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(1))));",
                           timeout=10)
            w, h = write_png(args.screenshot, driver.session_request("GET", "/screenshot", timeout=30))
            print(f"screenshot: {args.screenshot} ({w}x{h})")
        except (WebDriverError, OSError, ValueError, TypeError) as e:
            notes.append(f"could not take the full-page screenshot: {e}")
    if args.chart_shots:
        try:
            elements = driver.session_request("POST", "/elements",
                                              {"using": "css selector", "value": "figure.chart"}, timeout=10)
            chosen = {}
            for fig, el in zip(figures, elements):
                kind = fig["kind"] or f"figure{fig['index']}"
                if kind not in chosen or (chosen[kind][0]["empty"] and not fig["empty"]):
                    chosen[kind] = (fig, el)
            for kind, (fig, el) in chosen.items():
                safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in kind)
                out = Path(args.chart_shots) / f"report-{safe}.png"
                w, h = write_png(out, driver.session_request("GET", f"/element/{el[ELEMENT_KEY]}/screenshot",
                                                             timeout=30))
                print(f"chart screenshot: {out} ({w}x{h})")
        except (WebDriverError, OSError, ValueError, TypeError, KeyError) as e:
            notes.append(f"could not take the chart screenshots: {e}")


def check_narrow(driver, args, problems):
    """The page at PHONE_WIDTH: nothing runs off the right edge; CJK text has a font; the lang attribute."""
    driver.session_request("POST", "/window/rect", {"width": PHONE_WIDTH, "height": WINDOW_HEIGHT}, timeout=10)
    driver.execute("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(1))));",
                   timeout=10)
    data = driver.execute(NARROW_JS, timeout=20)
    if data["scrollWidth"] > data["width"] + 1 or data["overflowing"]:
        problems.append(f"at {PHONE_WIDTH} px the page is {data['scrollWidth']} px wide; running off the side: "
                        + "; ".join(data["overflowing"]))
    if data.get("cjk") and not data.get("glyphs"):
        problems.append(f"Chinese text draws as boxes (no CJK font for {data.get('family')}): install fonts-noto-cjk")
    if args.expect_lang and data["lang"] != args.expect_lang:
        problems.append(f"<html lang> is {data['lang']!r}, expected {args.expect_lang!r}")
    if args.phone_screenshot:
        try:
            w, h = write_png(args.phone_screenshot, driver.session_request("GET", "/screenshot", timeout=30))
            print(f"phone screenshot: {args.phone_screenshot} ({w}x{h})")
        except (WebDriverError, OSError, ValueError, TypeError) as e:
            problems.append(f"could not take the phone screenshot: {e}")
    print(f"narrow: {data['scrollWidth']} px of {data['width']} px" + (", CJK glyphs drawn" if data.get("glyphs") else ""))


def check_page(driver, report_path, args, deadline, progress):
    """Loads the report and returns the list of failed checks (empty when all passed)."""
    problems = []
    url = report_path.resolve().as_uri()
    progress["stage"] = f"loading {url}"
    try:
        driver.session_request("POST", "/url", {"url": url})
    except WebDriverError as e:
        raise CheckError(f"could not load {url}: {e}")

    # Bounded wait for readyState == complete and gpuscoutReport.done === true. Keep a few seconds of
    # the budget to gather diagnostics and clean up.
    progress["stage"] = "waiting for window.gpuscoutReport.done"
    wait_start = time.monotonic()
    wait_end = wait_start + max(2.0, min(DONE_WAIT_S, deadline.left() - 8))
    state = None
    while True:
        state = driver.execute(STATE_JS, timeout=max(1.0, min(10.0, deadline.left())))
        report = state.get("report") or {}
        if state.get("ready") == "complete" and report.get("done") is True:
            break
        if state.get("ready") == "complete" and report.get("errors"):
            # The page threw: done will most likely never come; don't sit out the whole wait.
            wait_end = min(wait_end, time.monotonic() + ERROR_GRACE_S)
        if time.monotonic() >= wait_end:
            log = driver.browser_log() or []
            severe = "".join(f"\n  browser log: {e.get('level')} {e.get('message')}" for e in log
                             if e.get("level") == "SEVERE")
            raise CheckError(
                f"the page never set window.gpuscoutReport.done === true within "
                f"{time.monotonic() - wait_start:.0f} s (readyState={state.get('ready')!r}, "
                f"window.gpuscoutReport={fmt_report(state.get('report'))}); is it a gpuscout report, "
                f"and did its script throw before finishing?{severe}")
        time.sleep(POLL_S)

    progress["stage"] = "inspecting the charts"
    data = driver.execute(INSPECT_JS, timeout=max(1.0, min(30.0, deadline.left())))
    figures = data["figures"]
    report = data["report"] or {}

    drawn_ok = 0
    empty_figs = [f for f in figures if f["empty"]]
    chart_figs = [f for f in figures if not f["empty"]]
    for fig in figures:
        where = f"#{fig['id']}" if fig["id"] else f"figure {fig['index']}"
        name = f"{fig['kind'] or '(no data-chart)'} ({where})"
        if not fig["kind"]:
            problems.append(f"chart {name}: the figure has no data-chart attribute")
        if fig["empty"]:
            note = fig.get("note")
            print(f"chart {name}: empty, note {note!r}" if note is not None else f"chart {name}: empty, no note")
            if not note:
                problems.append(f"chart {name}: an empty chart needs a non-empty <p class=\"empty-note\"> "
                                f"(found {'none' if note is None else 'an empty one'})")
            continue
        if fig["canvases"] != 1:
            print(f"chart {name}: {fig['canvases']} canvases")
            problems.append(f"chart {name}: expected exactly one <canvas> in the figure, found {fig['canvases']}")
            if fig["canvases"] == 0:
                continue
        w, h = fig.get("width", 0), fig.get("height", 0)
        if not (w > 0 and h > 0):
            print(f"chart {name}: canvas {w}x{h}")
            problems.append(f"chart {name}: the canvas is {w}x{h}; it was never sized (the chart was not drawn)")
            continue
        if "pixelError" in fig:
            print(f"chart {name}: canvas {w}x{h}, pixels unreadable")
            problems.append(f"chart {name}: could not read the canvas pixels: {fig['pixelError']}")
            continue
        pct = 100.0 * fig["drawn"] / fig["pixels"]
        print(f"chart {name}: canvas {w}x{h} (shown {fig['clientWidth']}x{fig['clientHeight']}), "
              f"{pct:.1f}% pixels drawn, {fig.get('marks', '?')} data marks")
        ok = True
        if pct <= MIN_DRAWN_PERCENT:
            ok = False
            problems.append(f"chart {name}: only {pct:.2f}% of the canvas pixels are drawn "
                            f"(need > {MIN_DRAWN_PERCENT:g}%): the canvas stayed blank")
        if "marks" in fig and fig["marks"] < 1:
            ok = False
            problems.append(f"chart {name}: Chart.js placed no data mark (point or bar) inside the plot area: "
                            f"only the axes were drawn")
        if not (fig["clientWidth"] > 0 and fig["clientHeight"] > 0):
            ok = False
            problems.append(f"chart {name}: the canvas is not laid out "
                            f"(shown {fig['clientWidth']}x{fig['clientHeight']}): hidden by CSS?")
        drawn_ok += ok

    if not figures:
        problems.append("the page has no <figure class=\"chart\">: is it a gpuscout HTML report?")
    if args.expect_charts is not None and len(chart_figs) != args.expect_charts:
        problems.append(f"expected {args.expect_charts} charts with data, found {len(chart_figs)}")
    if args.expect_empty is not None and len(empty_figs) != args.expect_empty:
        problems.append(f"expected {args.expect_empty} empty charts, found {len(empty_figs)}")
    for text in args.expect_text:
        if text not in data.get("text", ""):
            problems.append(f"the page does not show the text {text!r} (escaped wrongly, or markup it became?)")
    if report.get("charts") != len(chart_figs):
        problems.append(f"window.gpuscoutReport.charts is {report.get('charts')!r} but the page has "
                        f"{len(chart_figs)} charts with data")

    errors = report.get("errors")
    if errors is None or errors == "not-an-array":
        problems.append("window.gpuscoutReport.errors is not an array (see the page contract)")
    else:
        for err in errors:
            problems.append(f"the page recorded a script error: {err}")

    log = driver.browser_log()
    if log is None:
        print("note: this chromedriver serves no browser log (/se/log, /log); "
              "relying on window.gpuscoutReport.errors alone")
    else:
        for entry in log:
            if entry.get("level") == "SEVERE":
                problems.append(f"browser log SEVERE ({entry.get('source', '?')}): {entry.get('message')}")

    for name in data["resources"]:
        if not name.startswith(LOCAL_SCHEMES):
            problems.append(f"the page requested a network resource: {name} (the report must be self-contained)")
    for ref in data["external"]:
        url = ref.split("=", 1)[1]
        if not url.startswith(LOCAL_SCHEMES):
            problems.append(f"the page references an external resource: {ref}")

    summary = (f"{drawn_ok}/{len(chart_figs)} charts drawn, {len(empty_figs)} empty, "
               f"{len(log) if log is not None else 'no'} browser log entries")
    progress["stage"] = "checking the page at phone width"
    check_narrow(driver, args, problems)
    progress["stage"] = "taking screenshots"
    take_screenshots(driver, figures, args, problems)
    return problems, summary


def parse_args(argv):
    p = argparse.ArgumentParser(description="Checks a gpuscout HTML report in headless Chromium.")
    p.add_argument("report", type=Path, metavar="REPORT.html")
    p.add_argument("--screenshot", metavar="OUT.png", help="write a full-page screenshot")
    p.add_argument("--chart-shots", metavar="DIR", help="write DIR/report-KIND.png per chart kind")
    p.add_argument("--expect-charts", type=int, metavar="N", help="number of charts with data expected")
    p.add_argument("--expect-empty", type=int, metavar="M", help="number of empty charts expected")
    p.add_argument("--expect-text", action="append", default=[], metavar="TEXT",
                   help="text the page must show as text (repeatable): a hostile name must read as itself")
    p.add_argument("--expect-lang", metavar="LANG", help="the <html lang> the page must have (en, zh-CN)")
    p.add_argument("--phone-screenshot", metavar="OUT.png", help=f"write a screenshot at {PHONE_WIDTH} px width")
    p.add_argument("--chromedriver", metavar="PATH", help="chromedriver to run (default: from PATH)")
    p.add_argument("--chromium", metavar="PATH",
                   help="browser binary (default: /usr/lib/chromium/chromium, else chromium from PATH)")
    p.add_argument("--timeout", type=float, default=90.0, metavar="S", help="bound on the whole run (default 90)")
    args = p.parse_args(argv)
    if args.timeout <= 0:
        p.error("--timeout must be > 0")
    return args


def main(argv=None):
    args = parse_args(argv)
    started = time.monotonic()
    in_ci = os.environ.get("CI", "").lower() == "true"

    chromium = find_program(args.chromium, CHROMIUM_CANDIDATES)
    chromedriver = find_program(args.chromedriver, CHROMEDRIVER_CANDIDATES)
    missing = [what for what, path in (("chromium", chromium), ("chromedriver", chromedriver)) if not path]
    if missing:
        reason = (f"{' and '.join(missing)} not found "
                  f"(Debian: apt-get install chromium chromium-driver; or pass --chromium/--chromedriver)")
        if in_ci:
            print(f"FAIL: {reason}; CI=true, so a missing browser is a failure")
            return EXIT_FAIL
        print(f"SKIP: {reason}")
        return EXIT_SKIP
    if not args.report.is_file():
        print(f"FAIL: no report at {args.report}")
        return EXIT_FAIL

    deadline = Deadline(args.timeout)

    def on_alarm(_signum, _frame):
        raise Timeout()

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, args.timeout)
    driver = ChromeDriver(chromedriver, deadline)
    problems, summary = [], ""
    progress = {"stage": "starting chromedriver"}
    try:
        try:
            driver.start()
            progress["stage"] = "starting the browser"
            caps = driver.new_session(chromium)
            print(f"browser: {caps.get('browserName', '?')} {caps.get('browserVersion', '?')} "
                  f"({chromium}), chromedriver {chromedriver}")
            problems, summary = check_page(driver, args.report, args, deadline, progress)
        except Timeout:
            problems = [f"gave up after --timeout {args.timeout:g} s, while {progress['stage']}"]
        except CheckError as e:
            problems = [str(e)]
        except (WebDriverError, OSError, ValueError, KeyError, TypeError) as e:   # chromedriver died, ...
            problems = [f"WebDriver call failed: {e}{driver.log_tail()}"]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        driver.stop()

    elapsed = time.monotonic() - started
    for problem in problems:
        print(f"FAIL: {problem}")
    if problems:
        print(f"FAIL: {args.report} ({len(problems)} problem{'s' if len(problems) != 1 else ''}, {elapsed:.1f} s)")
        return EXIT_FAIL
    print(f"OK: {args.report}: {summary}, no script errors, no network requests ({elapsed:.1f} s)")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
