"""The names a dump gives the globals Dynamo installs (__compiled_fn_*,
__resume_at_*, __builtins_dict___*), kept so that debug() shows its
compiles under the names prepare_debug's files use."""

from __future__ import annotations

import json
import re
import types
from pathlib import Path
from typing import Dict, List

from . import _torch_hooks as hooks
from ._torch_hooks import BUILTINS_DICT_PREFIX, COMPILED_FN_PREFIX, RESUME_GLOBAL_PREFIX


# The file where a dump keeps the names its files use, in the order torch
# made them, so that a later debug() shows its compiles under the same names.
NAMES_FILE = ".unpyc_names.json"


class NameMap:
    """The names a dump gives the globals Dynamo installs, __compiled_fn_*
    (graphs), __resume_at_* (resume functions), __builtins_dict___* and
    the others hooks.installed_global_kind knows (modules, wrappers).

    torch makes them from process-wide counters, graphs with a random
    uuid, so a second run of the same program (debug() after
    prepare_debug) gets other names for the same graphs.  debug() must run
    the very files prepare_debug wrote, so it shows the names torch makes
    in a compile as the names the dump recorded for the same compile: the
    k-th name of a kind made while Dynamo compiles entry i of function f
    (the compile key "f#i") is shown as the k-th the dump recorded under
    that key.  Keys make the mapping independent of the order in which
    functions compile (data decides which resume function compiles
    first).  Whether a compile really is the same is checked where it
    counts: a file whose code comes out different is rewritten, with a
    warning.  Without a record (the first run), every name is shown as
    torch made it."""

    # The kinds of names, by the prefix torch gives them: compiled graphs,
    # resume functions, and the dicts of builtins Dynamo's code reads.
    KINDS = {"graph": COMPILED_FN_PREFIX, "resume": RESUME_GLOBAL_PREFIX,
             "builtins": BUILTINS_DICT_PREFIX}

    def __init__(self, recorded: Dict[str, Dict[str, List[str]]]) -> None:
        self.recorded = recorded  # compile key -> kind -> names
        self.made: Dict[str, Dict[str, List[str]]] = {}  # the same, of this run
        self.shown: Dict[str, str] = {}  # torch's name -> the dump's

    @classmethod
    def read(cls, dump_dir: Path) -> "NameMap":
        try:
            data = json.loads((dump_dir / NAMES_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        recorded = {key: {kind: [n for n in listed if isinstance(n, str)]
                          for kind, listed in names.items() if isinstance(listed, list)}
                    for key, names in (data.items() if isinstance(data, dict) else [])
                    if isinstance(names, dict)}
        return cls(recorded)

    def show(self, kind: str, name: str, key: str) -> str:
        """The dump's name for torch's global called name, made in the
        compile key names."""
        shown = self.shown.get(name)
        if shown is None:
            made = self.made.setdefault(key, {}).setdefault(kind, [])
            recorded = self.recorded.get(key, {}).get(kind, [])
            shown = recorded[len(made)] if len(made) < len(recorded) else name
            made.append(shown)
            self.shown[name] = shown
        return shown

    def show_in(self, code: types.CodeType, key: str) -> types.CodeType:
        """code, nested code included, loading the globals under the dump's
        names (what the decompiled source shows); the names not met before
        taken in the order torch made them."""
        for kind, prefix in self.KINDS.items():
            for name in sorted((n for n in code.co_names if n.startswith(prefix)),
                               key=unique_id_number):
                self.show(kind, name, key)
        # The others in the order the code first names them, which is the
        # same in the same compile.
        for name in _global_names(code):
            installed = hooks.installed_global_kind(name)
            if installed is not None:
                self.show(installed, name, key)
        return renamed_globals(code, self.shown)

    def torch_names_in(self, code: types.CodeType) -> types.CodeType:
        """code compiled from the dump, loading the globals torch installed."""
        return renamed_globals(code, {shown: name for name, shown in self.shown.items()})

    def to_json(self) -> str:
        return json.dumps(self.made, indent=1, sort_keys=True)


def _global_names(code: types.CodeType) -> List[str]:
    """The names code and its nested code load, in order, each once."""
    names = dict.fromkeys(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names.update(dict.fromkeys(_global_names(const)))
    return list(names)


def renamed_globals(code: types.CodeType, renames: Dict[str, str]) -> types.CodeType:
    names = tuple(renames.get(name, name) for name in code.co_names)
    consts = tuple(renamed_globals(const, renames) if isinstance(const, types.CodeType)
                   else const for const in code.co_consts)
    # Compared by identity: Dynamo's constants include tensors.
    if names == code.co_names and all(a is b for a, b in zip(consts, code.co_consts)):
        return code
    return code.replace(co_names=names, co_consts=consts)


def unique_id_number(name: str) -> int:
    """The number Dynamo's counters gave a global it installs:
    __compiled_fn_<n>_<uuid>, __resume_at_<offset>_<n>,
    __builtins_dict___<n>.  Names of one compile sorted by it are in the
    order torch made them."""
    match = re.match(r"__(?:compiled_fn|resume_at_\d+|builtins_dict__)_(\d+)", name)
    return int(match.group(1)) if match else 0
