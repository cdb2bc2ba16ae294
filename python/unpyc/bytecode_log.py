"""install() / uninstall(): unpyc's source in Dynamo's bytecode log.

With TORCH_LOGS="+bytecode" Dynamo logs the original and the transformed
bytecode of every frame it compiles.  After install(), each transformed
bytecode is followed in that log by the source unpyc decompiles from it,
as depyf.install() does with depyf's decompiler.  The source is verified
against the bytecode: where it is not equivalent, its first line says so.
Nothing is decompiled while that log is off.
"""

from __future__ import annotations

import logging
import sys
import types
from typing import List, Optional

from . import _torch_hooks as hooks

# The remover of the installed bytecode hook, when one is installed.
_installed: List[hooks.Remover] = []


def install() -> None:
    """Logs unpyc's source of each transformed bytecode in Dynamo's
    bytecode log (TORCH_LOGS="+bytecode").  Installing twice is once."""
    if _installed:
        return
    logger = hooks.bytecode_logger()
    if logger is None:
        return

    def log_source(original: types.CodeType, transformed: types.CodeType
                   ) -> Optional[types.CodeType]:
        if logger.isEnabledFor(logging.DEBUG):
            _log_decompiled(logger, original, transformed)
        return None  # Dynamo's code runs as it made it

    _installed.append(hooks.register_bytecode_hook(log_source))


def uninstall() -> None:
    """Removes what install() installed; without one, nothing."""
    while _installed:
        _installed.pop()()


def _log_decompiled(logger: logging.Logger, original: types.CodeType,
                    transformed: types.CodeType) -> None:
    import unpyc

    code = transformed
    if sys.version_info >= (3, 11):
        # Verified as a top-level def: under its class's qualname the
        # compiler would mangle the __compiled_fn_* globals Dynamo loads.
        code = transformed.replace(co_qualname=transformed.co_name)
    try:
        source = unpyc.decompile(code)
    except Exception as error:  # noqa: BLE001 - a log line must not break the compile
        logger.debug("unpyc could not decompile the transformed bytecode of %s: %s: %s",
                     original.co_name, type(error).__name__, error)
        return
    logger.debug("unpyc: source of the transformed bytecode of %s (%s:%d):\n%s",
                 original.co_name, original.co_filename, original.co_firstlineno, source)
