"""`python -m unpyc COMMAND ...`: hands COMMAND to the module that does it.

(The `unpyc` command itself is the C program in cli/; `python -m
unpyc.roundtrip` is the round-trip oracle.)
"""

from __future__ import annotations

import sys
from typing import List

from . import run_command


def main(argv: List[str]) -> int:
    if argv and argv[0] in ("run", "debug"):
        return run_command.main(argv[0], argv[1:])
    if argv and argv[0] in ("-h", "--help"):
        print(run_command.USAGE, end="")
        return 0
    problem = "unknown command %r" % (argv[0],) if argv else "no command"
    print("unpyc: %s\n%s" % (problem, run_command.USAGE), end="", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
