"""Every torch internal the torch.compile explorer touches, in one place.

Each entry point checks that the internal still exists in the running torch
and says so (a warning, a None, a no-op remover) when it does not, so that a
torch change costs one artifact of the dump, never the user's compile.  The
explorer (explorer.py) only talks to torch through this module.

torch is imported through importlib so that the type checker does not walk
the whole of torch: everything torch hands back is Any here, turned into
plain Python values before it leaves this module.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import logging
import os
import re
import sys
import types
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Dict, FrozenSet, Iterator, List, Optional, Tuple, cast

# The oldest torch whose internals this module was checked against (2.13
# on CPU here, 2.11 on a CUDA machine); an older one gets a warning.  Newer
# ones get none: each internal is feature-checked where it is used.
OLDEST_SUPPORTED_TORCH = (2, 11)

TRACE_LOGGER = "torch.__trace"

BytecodeHook = Callable[[types.CodeType, types.CodeType], Optional[types.CodeType]]
Remover = Callable[[], None]


class MissingHookWarning(UserWarning):
    """A torch internal the explorer uses is absent: one artifact is lost."""


def warn_missing(what: str, consequence: str, stacklevel: int = 3) -> None:
    warnings.warn(
        "unpyc: %s is not available in torch %s; %s" % (what, torch_version(), consequence),
        MissingHookWarning,
        stacklevel=stacklevel,
    )


def _torch() -> Any:
    return importlib.import_module("torch")


def _module(name: str) -> Optional[Any]:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _lookup(module_name: str, attribute: str, consequence: str) -> Optional[Any]:
    """module_name.attribute, or None after a warning saying what the dump
    loses without it."""
    found = getattr(_module(module_name), attribute, None)
    if found is None:
        warn_missing("%s.%s" % (module_name, attribute), consequence, stacklevel=4)
    return found


def torch_version() -> str:
    return str(getattr(_torch(), "__version__", "unknown"))


def check_version() -> None:
    release = re.match(r"(\d+)\.(\d+)", torch_version())
    if release is None or (int(release.group(1)), int(release.group(2))) < OLDEST_SUPPORTED_TORCH:
        warnings.warn(
            "unpyc: the torch.compile explorer supports torch %d.%d and later, this is torch "
            "%s; parts of the dump may be missing" % (OLDEST_SUPPORTED_TORCH + (torch_version(),)),
            MissingHookWarning,
            stacklevel=3,
        )


def _noop() -> None:
    return None


# ---- Dynamo: the bytecode hook, compile ids, cache entries ----


def register_bytecode_hook(hook: BytecodeHook) -> Remover:
    """torch._dynamo.convert_frame.register_bytecode_hook: hook(original
    code, transformed code) is called for every frame Dynamo compiles and
    may return a replacement for the transformed code."""
    register = _lookup("torch._dynamo.convert_frame", "register_bytecode_hook",
                       "transformed code and resume functions are not dumped")
    if register is None:
        return _noop
    handle = register(hook)
    remove: Remover = handle.remove
    return remove


def current_compile_id() -> Optional[str]:
    """The compile id ("frame/compile", as torch prints it) of the compile
    in progress on this thread, None outside one."""
    guards = _module("torch._guards")
    context = getattr(guards, "CompileContext", None)
    if context is None or not hasattr(context, "current_compile_id"):
        return None
    compile_id = context.current_compile_id()
    if compile_id is None:
        return None
    return "%s/%s" % (compile_id.frame_id, compile_id.frame_compile_id)


@dataclass
class CacheEntry:
    """One compiled version of a frame, as Dynamo keeps it."""

    transformed_code: types.CodeType
    compile_id: str
    guard_parts: List[str]


def cache_entries(code: types.CodeType) -> Optional[List[CacheEntry]]:
    """The cache entries of code, newest first (Dynamo's order); None when
    torch has no way to list them."""
    get_list = _lookup("torch._dynamo.eval_frame", "_debug_get_cache_entry_list",
                       "guards are not dumped")
    if get_list is None:
        return None
    entries = []
    for entry in get_list(code):
        manager = getattr(entry, "guard_manager", None)
        parts = getattr(manager, "code_parts", None) or []
        compile_id = getattr(entry, "compile_id", None)
        entries.append(CacheEntry(
            transformed_code=entry.code,
            compile_id=(
                "%s/%s" % (compile_id.frame_id, compile_id.frame_compile_id)
                if compile_id is not None else "?"),
            guard_parts=[str(part) for part in parts],
        ))
    return entries


class GuardCheckListener:
    """torch._C._dynamo.eval_frame.set_guard_complete_hook, switched on and
    off: while on, receive() is called each time Dynamo has checked the
    guards of a frame it compiled before, the first thing a call of compiled
    code does, and by then the cache entries of earlier compiles are listed.
    Off when nothing is awaited, so that calls of compiled code pay nothing.
    The slot holds one hook (torch.compiler.set_enable_guard_collectives
    uses it): the one found is called after receive(), and put back.
    receive() must not raise: Dynamo calls the hook from C++."""

    def __init__(self, receive: Callable[[], None]) -> None:
        self.set_hook = _lookup("torch._C._dynamo.eval_frame", "set_guard_complete_hook",
                                "the guards of a compile are dumped at the next compile "
                                "or the block's end, not at the next call of compiled code")
        self.receive = receive
        # Held here, so that switching off inside a call of it frees nothing.
        self.hook = self._on_guards_checked
        self.previous: Optional[Callable[[bool], bool]] = None
        self.on = False

    def _on_guards_checked(self, cache_hit: bool) -> bool:
        # Dynamo recompiles when the hook returns False: this returns what
        # the guards said, or what the hook it found says.
        self.receive()
        return self.previous(cache_hit) if self.previous is not None else cache_hit

    def switch_on(self) -> None:
        if self.set_hook is not None and not self.on:
            self.previous = self.set_hook(self.hook)
            self.on = True

    def switch_off(self) -> None:
        if self.set_hook is not None and self.on:
            current = self.set_hook(self.previous)
            if current is not self.hook:
                self.set_hook(current)  # set by someone else since: theirs stays
            self.on = False


def _graph_compile_frame() -> Optional[types.FrameType]:
    """The frame of OutputGraph.compile_and_call_fx_graph on this thread's
    stack: it names the graph (local "name", the __compiled_fn_* global,
    also stored as gm.meta["backend_id"]) before the backend sees it, and
    the structured-trace events for the graph carry no name."""
    frame: Optional[types.FrameType] = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "compile_and_call_fx_graph" and "name" in frame.f_locals:
            return frame
        frame = frame.f_back
    return None


def graph_name_being_compiled() -> Optional[str]:
    """The __compiled_fn_* name of the graph Dynamo is compiling right now."""
    frame = _graph_compile_frame()
    name = frame.f_locals.get("name") if frame is not None else None
    return name if isinstance(name, str) else None


RESUME_CODE_PREFIX = "torch_dynamo_resume_in_"

# The names of the other globals Dynamo installs for its code, made from
# process-wide state: OutputGraph.install_global_by_id names a value
# "<prefix>_<id(value)>_c<compile counter>" (modules, weak references to
# objects), OutputGraph.install_global "<prefix>_<counter>" (a wrapper of
# warnings.warn, the function making random values).  The named group is
# the part that stays the same from one run of a program to the next.
# An id() is an address, many digits long, which keeps a user's global
# such as layer_1_c2 out.
INSTALLED_GLOBAL_NAMES = (
    re.compile(r"(?P<kind>.*)_\d{6,}_c\d+"),
    re.compile(r"(?P<kind>__warnings_warn_wrapper|__gen_rand_values)_\d+"),
)


def installed_global_kind(name: str) -> Optional[str]:
    """The kind of global Dynamo installed under name (its name with the
    run-dependent numbers left out), or None for another name."""
    for pattern in INSTALLED_GLOBAL_NAMES:
        match = pattern.fullmatch(name)
        if match:
            return "installed " + match.group("kind")
    return None


# The prefixes of the globals Dynamo installs for the graphs it compiled,
# the resume functions and the dicts of builtins its code reads
# (OutputGraph.install_global: unique_id(prefix)).
COMPILED_FN_PREFIX = "__compiled_fn"
RESUME_GLOBAL_PREFIX = "__resume_at_"
BUILTINS_DICT_PREFIX = "__builtins_dict___"


def stable_globals(code: types.CodeType) -> FrozenSet[str]:
    """The globals code reads that Dynamo installed for it, which the
    explorer vouches are bound before code runs and rebound by nothing
    while it runs: the engine may move their reads past calls
    (unpyc.decompile's stable_globals) and the effect check, told the same
    names, reads them untagged (unpyc.effects).  This is the one place
    that claim is made.  Why it holds: OutputGraph.install_global_unsafe
    installs each name once (it asserts the name is new) for the life of
    the cache entry, and the names are fresh: unique_id(prefix) for graphs
    (with a uuid), resume functions, builtins dicts and wrappers,
    "<prefix>_<id(value)>_c<compile id>" for install_global_by_id, which
    binds one name to one object.  Dynamo's __import_* module aliases are
    left out: symbolic_convert binds those by plain assignment, shared
    with any code of the module."""
    prefixes = (COMPILED_FN_PREFIX, RESUME_GLOBAL_PREFIX, BUILTINS_DICT_PREFIX)
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= stable_globals(const)
    return frozenset(name for name in names
                     if name.startswith(prefixes) or installed_global_kind(name) is not None)


def resume_function(value: Any) -> Optional[Tuple[types.CodeType, Optional[Dict[str, Any]]]]:
    """The code and globals of the resume function Dynamo installed as a
    global with this value: the function itself, or, when the resume
    function has free variables, the factory Dynamo installs instead
    (OutputGraph.install_resume_function_global), whose closure holds the
    code and the globals the function gets; None for anything else."""
    code = getattr(value, "__code__", None)
    if not isinstance(code, types.CodeType):
        return None
    if code.co_name.startswith(RESUME_CODE_PREFIX):
        return code, getattr(value, "__globals__", None)
    cells = [cell.cell_contents for cell in getattr(value, "__closure__", None) or ()
             if _cell_filled(cell)]
    resume = [c for c in cells if isinstance(c, types.CodeType)
              and c.co_name.startswith(RESUME_CODE_PREFIX)]
    if len(resume) != 1:
        return None
    namespaces = [c for c in cells if isinstance(c, dict)]
    return resume[0], namespaces[0] if len(namespaces) == 1 else None


def _cell_filled(cell: Any) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def reset_dynamo() -> None:
    """torch._dynamo.reset(): forget every compiled frame, so the next call
    compiles again (debug() needs the code to be compiled under it)."""
    reset = _lookup("torch._dynamo", "reset",
                    "code compiled earlier keeps running as it was")
    if reset is not None:
        reset()


# ---- the structured trace ----


@dataclass
class TraceEvent:
    """One record of the torch.__trace logger: its kind ("dynamo_output_graph",
    "artifact", ...), its metadata, the compile id and its payload."""

    kind: str
    metadata: Dict[str, Any]
    compile_id: Optional[str]
    payload: str


_RESERVED_KEYS = frozenset([
    "rank", "compiled_autograd_id", "frame_id", "frame_compile_id", "attempt",
    "severity", "timestamp", "pathname", "thread", "subgraph_name", "has_payload",
    "stack",
])


def _trace_event(record: logging.LogRecord) -> Optional[TraceEvent]:
    fields = getattr(record, "metadata", None)
    if not isinstance(fields, dict):
        return None
    kinds = [key for key in fields if key not in _RESERVED_KEYS]
    if len(kinds) != 1:
        return None
    kind = kinds[0]
    metadata = fields[kind]
    compile_id = None
    if "frame_id" in fields and "frame_compile_id" in fields:
        compile_id = "%s/%s" % (fields["frame_id"], fields["frame_compile_id"])
    payload = getattr(record, "payload", None)
    return TraceEvent(kind=kind, metadata=metadata if isinstance(metadata, dict) else {},
                      compile_id=compile_id, payload=payload if isinstance(payload, str) else "")


class _TraceHandler(logging.Handler):
    def __init__(self, receive: Callable[[TraceEvent], None]) -> None:
        super().__init__(logging.DEBUG)
        self.receive = receive

    def emit(self, record: logging.LogRecord) -> None:
        event = _trace_event(record)
        if event is not None:
            self.receive(event)

    def handleError(self, record: logging.LogRecord) -> None:
        # A failure in the explorer must not print logging tracebacks into
        # the user's compile; receive() reports its own failures.
        return None


def listen_to_trace(receive: Callable[[TraceEvent], None]) -> Remover:
    """Calls receive(event) for every structured-trace event torch emits
    (torch only builds them while the torch.__trace logger has a handler)."""
    logger = logging.getLogger(TRACE_LOGGER)
    handler = _TraceHandler(receive)
    old_level = logger.level
    logger.addHandler(handler)
    if logger.level == logging.NOTSET or logger.level > logging.DEBUG:
        logger.setLevel(logging.DEBUG)

    def remove() -> None:
        logger.removeHandler(handler)
        logger.setLevel(old_level)

    return remove


# The compile times torch's compilation metrics carry (the metadata of the
# trace events "compilation_metrics", a frame's compile, and
# "bwd_compilation_metrics", a backward graph compiled on its first use;
# torch/_dynamo/utils.py CompilationMetrics): each phase's label, the
# depth of the phase it is part of (a time includes those of its parts:
# the frame's compile calls the backend, Inductor's compile generates code
# and runs the post-grad passes), the field and its unit in seconds.  Seen
# in torch 2.13; a field torch leaves out or null is "not reported".
COMPILE_PHASES: Tuple[Tuple[str, int, str, float], ...] = (
    ("Dynamo: the whole frame (tracing and the backend)", 0,
     "entire_frame_compile_time_s", 1.0),
    ("backend (AOTAutograd and the compiler it calls)", 1, "backend_compile_time_s", 1.0),
    ("pre-grad passes", 2, "pre_grad_pass_time_us", 1e-6),
    ("joint-graph passes", 2, "joint_graph_pass_time_us", 1e-6),
    ("Inductor", 2, "inductor_compile_time_s", 1.0),
    ("post-grad passes", 3, "post_grad_pass_time_us", 1e-6),
    ("Inductor code generation", 3, "code_gen_time_s", 1.0),
    ("kernel compilation (torch's triton_compile_time_us)", 1, "triton_compile_time_us",
     1e-6),
)


@dataclass
class PhaseTime:
    label: str
    depth: int
    field: str
    seconds: Optional[float]  # None: not reported


def compile_phase_times(event: TraceEvent) -> List[PhaseTime]:
    """The time of each of COMPILE_PHASES a compile-metrics event reports."""
    times = []
    for label, depth, name, unit in COMPILE_PHASES:
        value = event.metadata.get(name)
        seconds = float(value) * unit if isinstance(value, (int, float)) else None
        times.append(PhaseTime(label=label, depth=depth, field=name, seconds=seconds))
    return times


# ---- what would make a second run compile differently ----


@contextlib.contextmanager
def local_pgo_profile_disabled() -> Iterator[None]:
    """Dynamo's local profile (automatic_dynamic_local_pgo) off: it records
    on disk which inputs turned out dynamic, so a second run (debug() after
    prepare_debug) would compile dynamic graphs at once where the first
    compiled static ones, and could not run the files the first wrote.

    Inductor's FX graph cache and AOTAutograd's cache stay on: turned off,
    every compile was cold, most of what a dump cost (about 1.6x-2x the
    time of the block on a small GPT-2 with graph breaks,
    benchmarks/dump_overhead.py).  A graph loaded from AOTAutograd's cache
    has every stage in torch's log but the pre-grad graph (AOT_CACHE_HIT),
    and the dump says so per graph."""
    config = _module("torch._dynamo.config")
    option = "automatic_dynamic_local_pgo"
    if config is None or not hasattr(config, "patch") or not hasattr(config, option):
        warn_missing("torch._dynamo.config." + option,
                     "a second run may compile other graphs than the first")
        yield
        return
    with config.patch(**{option: False}):
        yield


# The trace artifact (event "artifact", metadata "name") torch logs when it
# loads a graph's compile from AOTAutograd's cache.  The graph then has no
# pre-grad graph in the trace: Inductor's pre-grad passes run only after a
# miss (aot_autograd's pre_grad_pass_timing "late", the default).  Torch
# still logs the AOT joint / forward / backward graphs (kept in the cache
# entry), and Inductor's FX graph cache logs the post-grad graphs and the
# output module.
AOT_CACHE_HIT = "aotautograd_cache_hit"


# ---- the patches debug() needs: FX graph code execution, Inductor loading ----


def _patch_attribute(owner: Any, name: str, make_wrapper: Callable[[Any], Any]) -> Remover:
    original = owner.__dict__[name]
    setattr(owner, name, make_wrapper(original))

    def restore() -> None:
        setattr(owner, name, original)

    return restore


GraphSourceRouter = Callable[[str, Any], Optional[str]]


def route_fx_graph_code(router: GraphSourceRouter) -> Remover:
    """Patches torch.fx.graph_module._exec_with_source(src, globals,
    co_fields): when router(src, graph module being recompiled) returns a
    path, the graph code is compiled from that file (which router wrote), so
    breakpoints in it are hit; otherwise FX does as it always does."""
    graph_module = _module("torch.fx.graph_module")
    if graph_module is None or "_exec_with_source" not in vars(graph_module):
        warn_missing("torch.fx.graph_module._exec_with_source",
                     "graph code runs from FX's in-memory source, not from the dump")
        return _noop

    def make_wrapper(original: Any) -> Any:
        @functools.wraps(original)
        def exec_with_source(src: Any, globals: Any, *args: Any, **kwargs: Any) -> Any:
            path = None
            if isinstance(src, str) and isinstance(globals, dict):
                path = router(src, _graph_module_on_stack(graph_module))
            if path is None:
                return original(src, globals, *args, **kwargs)
            exec(compile(src, path, "exec", dont_inherit=True), globals)
            return None

        # FX may generate a graph's code on its first call, inside compiled
        # code, where Dynamo would trace this wrapper (not in its skip list).
        return _without_dynamo(exec_with_source)

    return _patch_attribute(graph_module, "_exec_with_source", make_wrapper)


def _without_dynamo(function: Callable[..., Any]) -> Callable[..., Any]:
    """function, run with Dynamo off (torch._dynamo.disable)."""
    disable = _lookup("torch._dynamo", "disable", "Dynamo may trace unpyc's FX code hook")
    return function if disable is None else cast(Callable[..., Any], disable(function))


def _graph_module_on_stack(graph_module: Any) -> Any:
    """The GraphModule whose recompile() is generating code right now."""
    frame: Optional[types.FrameType] = sys._getframe(2)
    depth = 0
    while frame is not None and depth < 8:
        candidate = frame.f_locals.get("self")
        if isinstance(candidate, graph_module.GraphModule):
            return candidate
        frame = frame.f_back
        depth += 1
    return None


def graph_module_role(gm: Any) -> Optional[Tuple[str, str]]:
    """(__compiled_fn_* name, stage) of a graph module being built while
    Dynamo compiles a graph: Dynamo's own captured graph (made before the
    frame's local gm is assigned, or that gm itself), or one of the
    AOTAutograd graphs the backend makes of it; None outside a compile,
    and for the other graph modules made meanwhile (Inductor traces its
    pattern-matcher replacements, once per process, inside the first
    compile)."""
    frame = _graph_compile_frame()
    if frame is None:
        return None
    name = frame.f_locals.get("name")
    if not isinstance(name, str):
        return None
    captured = frame.f_locals.get("gm")
    if captured is None or captured is gm:
        return name, "captured_graph"
    stage = _aot_stage(gm)
    return (name, stage) if stage is not None else None


def graph_inputs(gm: Any) -> List[str]:
    """The parameter names of a graph module's forward (its placeholders'
    targets, which its code binds to the nodes' names)."""
    return [str(node.target) for node in gm.graph.nodes if node.op == "placeholder"]


# The inputs AOTAutograd names: primals_<i> and tangents_<i> in training,
# arg<i>_<j> in inference; a backward graph also takes what the forward
# saved, under the names of the forward's values.
_AOT_INPUT = re.compile(r"(primals|tangents)_\d+|arg\d+_\d+")


def _aot_stage(gm: Any) -> Optional[str]:
    """Which AOTAutograd graph gm is, from its inputs: the joint graph takes
    (primals, tangents) through a pytree, the backward graph takes
    tangents_* directly, the forward (or inference) graph no tangents and
    only AOTAutograd's names; None for a graph of other inputs."""
    placeholders = [node.name for node in gm.graph.nodes if node.op == "placeholder"]
    if not any(name.startswith("tangents_") for name in placeholders):
        if placeholders and all(_AOT_INPUT.fullmatch(name) for name in placeholders):
            return "aot_forward_graph"
        return None
    if type(getattr(gm.graph, "_codegen", None)).__name__ == "_PyTreeCodeGen":
        return "aot_joint_graph"
    return "aot_backward_graph"


@contextlib.contextmanager
def graph_modules_compiled_eagerly() -> Iterator[None]:
    """torch.fx._lazy_graph_module._force_skip_lazy_graph_module(): graph
    modules generate their code when made (inside the compile, where
    graph_module_role can name them) instead of on their first call."""
    force_skip = _lookup("torch.fx._lazy_graph_module", "_force_skip_lazy_graph_module",
                         "graphs first run after their compile run from FX's in-memory source")
    if force_skip is None:
        yield
        return
    with force_skip():
        yield


ModuleRouter = Callable[[str], Optional[str]]


def route_inductor_modules(router: ModuleRouter) -> Remover:
    """Patches torch._inductor.codecache.PyCodeCache.load_by_key_path(key,
    path, ...): when router(path) returns another path (a copy in the dump),
    Inductor's output module is loaded from there."""
    codecache = _module("torch._inductor.codecache")
    cache_class = getattr(codecache, "PyCodeCache", None)
    if cache_class is None or "load_by_key_path" not in vars(cache_class):
        warn_missing("torch._inductor.codecache.PyCodeCache.load_by_key_path",
                     "Inductor's output code runs from its cache, not from the dump")
        return _noop

    def make_wrapper(original: Any) -> Any:
        function = original.__func__

        @functools.wraps(function)
        def load_by_key_path(cls: Any, key: Any, path: Any, *args: Any, **kwargs: Any) -> Any:
            routed = router(path) if isinstance(path, str) else None
            return function(cls, key, routed or path, *args, **kwargs)

        return classmethod(load_by_key_path)

    return _patch_attribute(cache_class, "load_by_key_path", make_wrapper)


# ---- what depyf's interface needs: the bytecode log, the frame compiled, ranks ----


def bytecode_logger() -> Optional[logging.Logger]:
    """Dynamo's "bytecode" artifact logger (on with TORCH_LOGS="+bytecode"),
    where it logs the original and the transformed bytecode of each frame."""
    get_logger = _lookup("torch._logging", "getArtifactLogger",
                         "the decompiled source is not logged")
    if get_logger is None:
        return None
    logger = get_logger("torch._dynamo.convert_frame", "bytecode")
    return logger if isinstance(logger, logging.Logger) else None


def _frame_compiling() -> Optional[types.FrameType]:
    """The frame of convert_frame._compile on this thread's stack: Dynamo
    compiling a frame (its code and locals are the arguments)."""
    frame: Optional[types.FrameType] = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if code.co_name == "_compile" and code.co_filename.endswith("convert_frame.py"):
            return frame
        frame = frame.f_back
    return None


def locals_of_frame_being_compiled() -> Optional[Dict[str, Any]]:
    """The locals of the frame Dynamo is compiling on this thread (a
    bytecode hook is given only the code objects): the `locals` argument of
    convert_frame._compile, or its `frame`'s f_locals in older torch."""
    frame = _frame_compiling()
    if frame is None:
        warn_missing("convert_frame._compile's frame",
                     "the frame being compiled is unknown to the bytecode hook")
        return None
    found = frame.f_locals.get("locals")
    if not isinstance(found, dict):
        found = getattr(frame.f_locals.get("frame"), "f_locals", None)
    return found if isinstance(found, dict) else None


def globals_of_frame_being_compiled(code: types.CodeType) -> Optional[Dict[str, Any]]:
    """The globals of the frame Dynamo is compiling on this thread, when its
    code is code (the `globals` argument of convert_frame._compile, or its
    `frame`'s f_globals in older torch); None otherwise."""
    frame = _frame_compiling()
    if frame is None or frame.f_locals.get("code") is not code:
        return None
    found = frame.f_locals.get("globals")
    if not isinstance(found, dict):
        found = getattr(frame.f_locals.get("frame"), "f_globals", None)
    return found if isinstance(found, dict) else None


def code_being_compiled() -> Optional[types.CodeType]:
    """The code object Dynamo is compiling on this thread: the `code`
    argument of convert_frame._compile."""
    frame = _frame_compiling()
    code = frame.f_locals.get("code") if frame is not None else None
    return code if isinstance(code, types.CodeType) else None


def distributed_rank() -> Optional[Tuple[int, int]]:
    """(rank, world size) of this process in a torch.distributed job: from
    the RANK / WORLD_SIZE variables torchrun and the launchers set (known
    before init_process_group), else from the initialized process group;
    None outside one."""
    rank, world_size = os.environ.get("RANK"), os.environ.get("WORLD_SIZE")
    if rank is not None and world_size is not None and rank.isdigit() \
            and world_size.isdigit():
        return int(rank), int(world_size)
    distributed = _module("torch.distributed")
    if distributed is None or not getattr(distributed, "is_available", lambda: False)() \
            or not distributed.is_initialized():
        return None
    return int(distributed.get_rank()), int(distributed.get_world_size())
