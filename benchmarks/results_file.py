"""benchmarks/RESULTS.md is made of sections ("## Title" up to the next
"## "); each benchmark rewrites its own and leaves the others as they are."""

from __future__ import annotations

import os
import platform
import re
import subprocess

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "RESULTS.md")
HEADER = "# Benchmarks\n\nWritten by the scripts in benchmarks/; each section says how it was made.\n"


def write_section(title: str, body: str, path: str = RESULTS) -> None:
    """Puts `## title` followed by body into path, in place of that section
    if the file has one, else at its end."""
    text = HEADER
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            text = f.read()
    section = "## %s\n\n%s\n" % (title, body.strip("\n"))
    pattern = re.compile(r"^## %s\n.*?(?=^## |\Z)" % re.escape(title), re.MULTILINE | re.DOTALL)
    if pattern.search(text):
        text = pattern.sub(lambda _match: section + "\n", text, count=1).rstrip("\n") + "\n"
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gib() -> float:
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) / 2 ** 20
    except OSError:
        pass
    return 0.0


def _processes_running() -> int:
    """Other processes busy on the CPUs now (the R column of ps), this one's
    tools included."""
    try:
        out = subprocess.run(["ps", "-eo", "stat"], capture_output=True, text=True).stdout
    except OSError:
        return -1
    return sum(1 for line in out.splitlines()[1:] if line.startswith("R"))


def machine() -> str:
    """One line: cores, CPU model, memory, OS, and the load when asked."""
    load = os.getloadavg()
    return ("%d cores (%s), %.0f GiB memory, %s; load average %.1f / %.1f / %.1f "
            "(1 / 5 / 15 min), %d processes running" % (
                os.cpu_count() or 0, _cpu_model(), _memory_gib(), platform.platform(),
                load[0], load[1], load[2], _processes_running()))
