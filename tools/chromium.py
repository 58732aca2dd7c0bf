"""Drive a headless Chromium over the DevTools protocol, with no dependency.

The browser is started with ``--remote-debugging-pipe``: it reads protocol
commands (JSON, each ended by a NUL byte) on file descriptor 3 and writes
answers and events on descriptor 4.  This is the small client the HTML
graph page's browser test and its benchmark use::

    with Browser() as b:                       # Browser.find() is None without chromium
        page = b.open("file:///tmp/graph.html", width=1400, height=900)
        page.wait_for("document.documentElement.dataset.firstPaintMs")
        page.click_selector(".n.grp")
        page.screenshot("shot.png")

Also a command: ``python tools/chromium.py PAGE.html OUT.png [--click SELECTOR]``
(the README's screenshot of ``agrad graph --format html`` is made this way).
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio")


class BrowserError(RuntimeError):
    pass


class Browser:
    """One headless Chromium process; ``open`` gives a :class:`Page`."""

    def __init__(self, exe: str | None = None, timeout: float = 60.0):
        self.exe = exe or self.find()
        if self.exe is None:
            raise BrowserError("no Chromium found (apt-get install chromium)")
        self.timeout = timeout
        self._profile = tempfile.TemporaryDirectory(prefix="agrad-chromium-")
        to_child_r, self._w = os.pipe()
        self._r, from_child_w = os.pipe()

        def fds():  # in the child: the pipe ends on descriptors 3 and 4 (inheritable)
            import fcntl
            a = fcntl.fcntl(to_child_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_child_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        log = open(os.path.join(self._profile.name, "chromium.log"), "wb")
        self.proc = subprocess.Popen(
            [self.exe, *FLAGS, f"--user-data-dir={self._profile.name}", "--remote-debugging-pipe",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, preexec_fn=fds, close_fds=False)
        log.close()
        os.close(to_child_r)
        os.close(from_child_w)
        self._buf = b""
        self._id = 0
        self.events: list = []

    @staticmethod
    def find() -> str | None:
        for name in NAMES:
            path = shutil.which(name)
            if path:
                return path
        return None

    # protocol ---------------------------------------------------------------
    def send(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float | None = None) -> dict:
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            n = os.write(self._w, data)
            data = data[n:]
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def _read(self, deadline: float) -> dict:
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("no answer from Chromium in time")
            ready, _, _ = select.select([self._r], [], [], left)
            if ready:
                chunk = os.read(self._r, 1 << 20)
                if not chunk:
                    raise BrowserError("Chromium closed the protocol pipe (it exited)")
                self._buf += chunk
        raw, _, self._buf = self._buf.partition(b"\0")
        return json.loads(raw)

    def open(self, url: str, width: int = 1400, height: int = 900) -> "Page":
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        page.send("Page.enable")
        page.send("Runtime.enable")  # the page's uncaught errors arrive as events
        page.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        page.send("Page.navigate", {"url": url})
        return page

    def errors(self) -> list:
        """The uncaught exceptions of the pages so far (descriptions)."""
        return [e["params"]["exceptionDetails"].get("exception", {}).get("description")
                or e["params"]["exceptionDetails"].get("text")
                for e in self.events if e.get("method") == "Runtime.exceptionThrown"]

    def close(self) -> None:
        try:
            if self.proc.poll() is None:
                try:
                    self.send("Browser.close", timeout=5)
                except (BrowserError, OSError):
                    pass
                try:
                    self.proc.wait(5)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(5)
        finally:
            for fd in (self._r, self._w):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self._profile.cleanup()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Page:
    def __init__(self, browser: Browser, session: str):
        self.browser, self.session = browser, session

    def send(self, method, params=None, timeout=None):
        return self.browser.send(method, params, self.session, timeout)

    def eval(self, expression: str):
        r = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                           "awaitPromise": True})
        if "exceptionDetails" in r:
            raise BrowserError(f"{expression}: {r['exceptionDetails'].get('text')} "
                               f"{r['exceptionDetails'].get('exception', {}).get('description', '')}")
        return r.get("result", {}).get("value")

    def wait_for(self, expression: str, timeout: float = 30.0, interval: float = 0.02):
        """Poll until ``expression`` is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        error = None
        while True:
            try:  # the page may still be loading: its document is not there yet
                value = self.eval(expression)
            except BrowserError as exc:
                value, error = None, exc
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError(f"timed out waiting for {expression}" + (f" ({error})" if error else ""))
            time.sleep(interval)

    def click(self, x: float, y: float) -> None:
        """A real left click at page coordinates (mouse moved, pressed, released)."""
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent",
                      {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def click_selector(self, selector: str) -> None:
        rect = self.eval("(() => { const r = document.querySelector(%s).getBoundingClientRect();"
                         " return [r.left + r.width / 2, r.top + r.height / 2]; })()" % json.dumps(selector))
        self.click(*rect)

    def type(self, text: str) -> None:
        self.send("Input.insertText", {"text": text})

    def key(self, key: str, code: str | None = None, keycode: int = 0, text: str | None = None) -> None:
        """Press and release a key (``key("Enter", keycode=13, text="\\r")``)."""
        down = {"type": "keyDown" if text else "rawKeyDown", "key": key, "code": code or key,
                "windowsVirtualKeyCode": keycode, "nativeVirtualKeyCode": keycode}
        if text:
            down["text"] = text
        self.send("Input.dispatchKeyEvent", down)
        self.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code or key,
                                             "windowsVirtualKeyCode": keycode,
                                             "nativeVirtualKeyCode": keycode})

    def screenshot(self, path) -> None:
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))


def main() -> int:
    import argparse
    ap = argparse.ArgumentParser(description="Screenshot a local HTML page in headless Chromium.")
    ap.add_argument("page")
    ap.add_argument("out")
    ap.add_argument("--click", action="append", default=[], metavar="SELECTOR",
                    help="click the first element matching SELECTOR (repeatable, in order)")
    ap.add_argument("--search", help="type this in the page's search box")
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--height", type=int, default=800)
    args = ap.parse_args()
    with Browser() as b:
        page = b.open("file://" + os.path.abspath(args.page), args.width, args.height)
        page.wait_for("document.documentElement.dataset.firstPaintMs")
        for sel in args.click:
            page.click_selector(sel)
            time.sleep(0.3)
        if args.search:
            page.click_selector("#search")
            page.type(args.search)
            time.sleep(0.5)
        page.screenshot(args.out)
        print(f"first paint {page.eval('document.documentElement.dataset.firstPaintMs')} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
