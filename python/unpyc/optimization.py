"""depyf.optimization's TorchCompileWrapperWithCustomDispatcher, with its
contract (vLLM builds on it): a wrapper around torch.compile whose
subclass decides, in its own __call__, which compiled version of forward
runs, without Dynamo's guard checks on each call.

It keeps the transformed code Dynamo makes of the subclass's forward for
this instance, in compile order (compiled_codes), and dispatch_to_code(i)
runs forward with the i-th of them.  That works because Dynamo gives
transformed code the same arguments, cells and free variables as the
original, so the function can run it in place of its own code.
"""

from __future__ import annotations

import contextlib
import types
import weakref
from typing import Any, Callable, Iterator, List, Optional, cast

from . import _torch_hooks as hooks


class TorchCompileWrapperWithCustomDispatcher:
    """Subclasses define forward (the method torch.compile compiles),
    __init__ (how torch.compile is applied: pass its result here), and
    __call__ (the dispatch: self.compiled_codes, and `with
    self.dispatch_to_code(i): self.forward(...)`)."""

    def __init__(self, compiled_callable: Callable[..., Any],
                 use_custom_dispatcher: bool = True) -> None:
        self.compiled_callable = compiled_callable
        self.original_code_object: types.CodeType = self._forward_function().__code__
        self.compiled_codes: List[types.CodeType] = []
        self.use_custom_dispatcher = use_custom_dispatcher
        # The hook holds the wrapper weakly and goes when it does: a hook
        # registered for good would keep every wrapper alive.
        wrapper = weakref.ref(self)

        def keep_compiled_code(original: types.CodeType, transformed: types.CodeType
                               ) -> Optional[types.CodeType]:
            alive = wrapper()
            if alive is not None:
                alive.bytecode_hook(original, transformed)
            return None

        weakref.finalize(self, hooks.register_bytecode_hook(keep_compiled_code))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """The dispatch; by default, the compiled callable (Dynamo's guards
        choose).  A subclass's may take more arguments than forward."""
        return self.compiled_callable(*args, **kwargs)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("a subclass defines forward, the method torch.compile compiles")

    def bytecode_hook(self, old_code: types.CodeType, new_code: types.CodeType) -> None:
        """Keeps new_code when Dynamo made it of this class's forward called
        on this instance (other instances share the code object)."""
        if old_code is not self.original_code_object:
            return
        frame_locals = hooks.locals_of_frame_being_compiled()
        if frame_locals is None or frame_locals.get("self") is not self:
            return
        self.compiled_codes.append(new_code)

    @contextlib.contextmanager
    def dispatch_to_code(self, index: int) -> Iterator[None]:
        """Inside the block, forward runs compiled_codes[index] directly."""
        forward = self._forward_function()
        forward.__code__ = self.compiled_codes[index]
        try:
            yield
        finally:
            forward.__code__ = self.original_code_object

    def _forward_function(self) -> types.FunctionType:
        return cast(types.FunctionType, type(self).forward)
