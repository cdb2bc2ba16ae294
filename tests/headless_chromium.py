"""Headless Chromium, driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages ended by a NUL byte, commands on
the browser's fd 3, replies and events on its fd 4), with the standard
library only.  One browser process loads a page and every page it links
to, so a test can follow each link of a dump's index.html the way a
reader's click would.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from typing import Any, Dict, List, Optional, Tuple

# The names the Debian package and others install the browser under.
BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome")


def find_browser() -> Optional[str]:
    return next((path for path in map(shutil.which, BROWSER_NAMES) if path), None)


class Browser:
    """One headless Chromium with one page (tab)."""

    def __init__(self, executable: str, timeout: float = 60.0) -> None:
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="unpyc-chromium-")
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()
        self.process = subprocess.Popen(
            [executable, "--headless", "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--user-data-dir=" + self.profile,
             "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(3, 4),
            preexec_fn=lambda: _move_fds(to_browser_read, from_browser_write))
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.session = ""
        target = self.command("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.command("Target.attachToTarget", targetId=target,
                                    flatten=True)["sessionId"]

    def command(self, method: str, **params: Any) -> Dict[str, Any]:
        """Sends a command (to the page once attached) and returns its
        result; events met on the way are dropped."""
        self.next_id += 1
        message: Dict[str, Any] = {"id": self.next_id, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("Chromium: %s: %s" % (method, reply["error"]))
                result: Dict[str, Any] = reply.get("result", {})
                return result

    def _read(self, deadline: float) -> Dict[str, Any]:
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not answer in %.0f s" % self.timeout)
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed its DevTools pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        parsed: Dict[str, Any] = json.loads(message)
        return parsed

    def evaluate(self, expression: str) -> Any:
        result = self.command("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError("Chromium: %s raised %s" % (expression, result["exceptionDetails"]))
        return result["result"].get("value")

    def load(self, url: str) -> Optional[str]:
        """Navigates the page to url and waits until it has loaded; the
        browser's error (net::ERR_FILE_NOT_FOUND, ...) or None."""
        navigated = self.command("Page.navigate", url=url)
        if navigated.get("errorText"):
            return str(navigated["errorText"])
        deadline = time.monotonic() + self.timeout
        while self.evaluate("document.readyState + ' ' + location.href") != "complete " + url:
            if time.monotonic() > deadline:
                return "not loaded in %.0f s" % self.timeout
            time.sleep(0.02)
        return None

    def links(self) -> List[Tuple[str, str]]:
        """The href of each link of the page, as the browser resolves it,
        and the link's text as shown."""
        found = self.evaluate("JSON.stringify(Array.from(document.querySelectorAll('a[href]'),"
                              " a => [a.href, a.innerText]))")
        return [(str(href), str(text)) for href, text in json.loads(found)]

    def close(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)
        os.close(self.to_browser)
        os.close(self.from_browser)
        shutil.rmtree(self.profile, ignore_errors=True)


def _move_fds(read_end: int, write_end: int) -> None:
    """In the browser's process: its pipe ends on fds 3 and 4."""
    moved_read, moved_write = os.dup(read_end), os.dup(write_end)
    os.dup2(moved_read, 3)
    os.dup2(moved_write, 4)
