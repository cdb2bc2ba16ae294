"""Downloads the real-world corpus (tests/realworld/packages.txt) and unpacks
its .py files, one folder per package, under build/realworld/corpus/NAME/.

    python scripts/realworld_corpus.py
    python scripts/realworld_corpus.py --list tests/realworld/holdout.txt --dest build/holdout/corpus

--list names another list of the same format and --dest the folder its
packages are unpacked in (the wheels go to wheels/ beside it); without
them the script builds the real-world corpus as before.

Each wheel is fetched by pip (pinned release, pure-Python wheel, its sha256
checked) into build/realworld/wheels/.  A package folder records the sha256
of the wheel it came from; the script runs pip only for packages whose
folder is missing or came from another wheel, so running it again is fast.
Folders of packages no longer listed are removed.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Dict, List, Tuple

REPO = Path(__file__).resolve().parent.parent
PACKAGES = REPO / "tests" / "realworld" / "packages.txt"
CORPUS = REPO / "build" / "realworld" / "corpus"
MARKER = ".wheel-sha256"
_LINE = re.compile(r"^([A-Za-z0-9_.-]+)==(\S+)\s+--hash=sha256:([0-9a-f]{64})$")


def read_packages(path: Path) -> List[Tuple[str, str, str]]:
    """(name, version, sha256) of each line of the requirements file."""
    packages = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        match = _LINE.match(line)
        if not match:
            raise SystemExit("%s: not `name==version --hash=sha256:HEX`: %r" % (path, line))
        packages.append((match.group(1), match.group(2), match.group(3)))
    return packages


def _current(corpus: Path, name: str, digest: str) -> bool:
    marker = corpus / name / MARKER
    return marker.is_file() and marker.read_text().strip() == digest


def _download(lines: List[str], wheels: Path) -> None:
    """pip download of the given requirement lines into wheels: pure wheels
    only, no dependencies (every package of the corpus is listed itself)."""
    wheels.mkdir(parents=True, exist_ok=True)
    requirements = wheels / "requirements.txt"
    requirements.write_text("\n".join(lines) + "\n", encoding="utf-8")
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
         "--only-binary=:all:", "--platform", "any", "--implementation", "py",
         "--abi", "none", "--require-hashes", "-r", str(requirements),
         "-d", str(wheels)],
        check=True)


def _wheels_by_digest(wheels: Path) -> Dict[str, Path]:
    return {hashlib.sha256(p.read_bytes()).hexdigest(): p for p in wheels.glob("*.whl")}


def _unpack(wheel: Path, target: Path, digest: str) -> int:
    """The wheel's .py files into target (replacing what was there); the
    number of files."""
    shutil.rmtree(target, ignore_errors=True)
    count = 0
    with zipfile.ZipFile(wheel) as archive:
        for member in archive.namelist():
            if member.endswith(".py") and ".." not in member.split("/"):
                archive.extract(member, target)
                count += 1
    (target / MARKER).write_text(digest + "\n")
    return count


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", type=Path, default=PACKAGES,
                        help="the pinned list (default tests/realworld/packages.txt)")
    parser.add_argument("--dest", type=Path, default=CORPUS,
                        help="the corpus folder (default build/realworld/corpus)")
    args = parser.parse_args()
    args.dest = args.dest.resolve()
    return args


def main() -> int:
    args = _arguments()
    corpus, wheels = args.dest, args.dest.parent / "wheels"
    packages = read_packages(args.list)
    stale = [(n, v, d) for n, v, d in packages if not _current(corpus, n, d)]
    if stale:
        have = _wheels_by_digest(wheels) if wheels.is_dir() else {}
        missing = ["%s==%s --hash=sha256:%s" % p for p in stale if p[2] not in have]
        if missing:
            _download(missing, wheels)
            have = _wheels_by_digest(wheels)
        for name, version, digest in stale:
            if digest not in have:
                raise SystemExit("realworld_corpus: pip gave no wheel of %s==%s with sha256 %s"
                                 % (name, version, digest))
            _unpack(have[digest], corpus / name, digest)
    listed = {name for name, _, _ in packages}
    for folder in corpus.iterdir():
        if folder.name not in listed:
            shutil.rmtree(folder)
    files = sum(1 for _ in corpus.rglob("*.py"))
    print("corpus: %d packages, %d .py files in %s (%d unpacked now)" % (
        len(packages), files, os.path.relpath(corpus, REPO), len(stale)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
