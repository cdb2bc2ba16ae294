"""Where a process writes when several dump into one dir: torch.distributed
ranks, processes multiprocessing started (torch.multiprocessing.spawn),
or programs run side by side on the same dump dir.

A dump is one process's: its Dynamo numbers its own globals
(__compiled_fn_1, __resume_at_..., cache entry 0), and its files name each
other (full_code_for_f.py names __transformed_code_0_for_f.py and the
graph files after the globals that run).  Two processes writing the same
names would leave a mix of two dumps, file by file, whatever suffix the
full_code files got.  So a process that may share the dir writes its whole
dump, names unchanged, in a folder of its own inside it:

- a torch.distributed rank (world size above 1): rank_<rank>, the same
  folder on every run, every rank alike;
- a process started by multiprocessing: pid_<pid>;
- any other process while another live process writes the top of the dir
  (it holds a lock on the dir until it exits): pid_<pid>.

Otherwise the process writes the dir itself, and a later run overwrites
the dump of an earlier one, as it always did.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import tempfile
from pathlib import Path
from typing import Dict

from . import _torch_hooks as hooks

# Dump dirs whose top this process writes, and the descriptor whose lock
# says so to other processes: held until the process exits.
_claimed: Dict[Path, int] = {}


def dump_dir_of_this_process(requested: Path) -> Path:
    """The folder this process writes its dump in, for the dump dir
    requested (an absolute path)."""
    rank = hooks.distributed_rank()
    if rank is not None and rank[1] > 1:
        return requested / ("rank_%d" % rank[0])
    if multiprocessing.parent_process() is not None or not _claim(requested):
        return requested / ("pid_%d" % os.getpid())
    return requested


def _claim(requested: Path) -> bool:
    """Whether this process may write the top of requested: no other live
    process holds its lock (taken now, and kept).  The lock file lives in
    the temporary folder, so that the dump holds only the dump."""
    if requested in _claimed:
        return True
    try:
        import fcntl
    except ImportError:  # no flock (Windows): side-by-side runs are not told apart
        return True
    digest = hashlib.sha1(str(requested).encode("utf-8")).hexdigest()[:20]
    lock_path = os.path.join(tempfile.gettempdir(), "unpyc-dump-%s.lock" % digest)
    descriptor = os.open(lock_path, os.O_RDONLY | os.O_CREAT, 0o666)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(descriptor)
        return False
    _claimed[requested] = descriptor
    return True
