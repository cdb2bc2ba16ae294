"""Real torch.compile runs under unpyc.prepare_debug, one process per
backend (tests/test_explorer.py starts it and checks the dumps).

    python torch_scenarios.py BACKEND OUT_DIR

Each scenario compiles its code twice from a reset Dynamo: once without
unpyc (the reference), once inside prepare_debug(OUT_DIR/<scenario>); the
outputs and gradients must be bitwise equal.  OUT_DIR/report.json lists the
scenarios with what the test should find in each dump.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import torch
import torch._dynamo
import torch._dynamo.convert_frame
import torch._functorch.config
import torch._inductor.codecache
import torch._inductor.config
import torch.fx._lazy_graph_module
import torch.fx.graph_module
from torch import nn
from torch._C._dynamo.eval_frame import set_guard_complete_hook

import unpyc

BACKEND = sys.argv[1]
OUT = sys.argv[2]
Run = Callable[[], List[torch.Tensor]]


def guard_complete_hook() -> Any:
    """The hook in Dynamo's guard-complete slot (read by setting it)."""
    hook = set_guard_complete_hook(None)
    set_guard_complete_hook(hook)
    return hook


def torch_state() -> Dict[str, Any]:
    """What unpyc may change while a block runs and must put back."""
    trace = logging.getLogger("torch.__trace")
    return {
        "bytecode_hooks": len(torch._dynamo.convert_frame._bytecode_hooks),
        "trace_handlers": list(trace.handlers),
        "trace_level": trace.level,
        "exec_with_source": torch.fx.graph_module._exec_with_source,
        "load_by_key_path": vars(torch._inductor.codecache.PyCodeCache)["load_by_key_path"],
        "fx_graph_cache": torch._inductor.config.fx_graph_cache,
        "autograd_cache": torch._functorch.config.enable_autograd_cache,
        "skip_lazy": torch.fx._lazy_graph_module._force_skip_lazy_graph_module_flag,
        "guard_complete_hook": guard_complete_hook(),
    }


def outputs_of(run: Run) -> List[torch.Tensor]:
    torch.manual_seed(0)
    return [t.detach().clone() for t in run()]


def same_outputs(a: List[torch.Tensor], b: List[torch.Tensor]) -> bool:
    return len(a) == len(b) and all(
        x.dtype == y.dtype and x.shape == y.shape and torch.equal(x, y) for x, y in zip(a, b))


def compare(name: str, make: Callable[[], Run], expect: Dict[str, Any]) -> Dict[str, Any]:
    """Runs make()'s program without unpyc, under prepare_debug, and under
    debug() (the code that runs then comes from the dumped files)."""
    torch._dynamo.reset()
    reference = outputs_of(make())
    torch._dynamo.reset()
    before = torch_state()
    dump_dir = os.path.join(OUT, name)
    run = make()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with unpyc.prepare_debug(dump_dir):
            dumped = outputs_of(run)
    # What prepare_debug wrote, before debug() runs from it.
    prepared = {path.name: path.read_text() for path in Path(dump_dir).glob("*.py")}
    torch._dynamo.reset()
    run = make()
    with warnings.catch_warnings(record=True) as caught_under_debug:
        warnings.simplefilter("always")
        with unpyc.debug(dump_dir, pause=False):
            debugged = outputs_of(run)
    return dict(expect, name=name, dump_dir=dump_dir, debug_dir=dump_dir, prepared=prepared,
                changed_under_debug=[str(w.message) for w in caught_under_debug
                                     if "changed under debug()" in str(w.message)],
                equal=same_outputs(reference, dumped),
                equal_under_debug=same_outputs(reference, debugged),
                restored=torch_state() == before,
                warnings=[str(w.message) for w in caught
                          if w.category.__module__.startswith("unpyc")])


# ---- the matrix: grad x dynamic x function / nn.Module ----


def matrix_cell(grad: bool, dynamic: bool, module: bool) -> Callable[[], Run]:
    def make() -> Run:
        torch.manual_seed(1)
        if module:
            net = nn.Sequential(nn.Linear(4, 3), nn.ReLU())
            compiled: Callable[..., torch.Tensor] = torch.compile(
                net, backend=BACKEND, dynamic=dynamic)
            params = list(net.parameters())
        else:
            weight = torch.randn(4, 3, requires_grad=grad)

            def small_fn(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
                return torch.sin(x) @ w + 1

            compiled = torch.compile(small_fn, backend=BACKEND, dynamic=dynamic)
            params = [weight]

        def run() -> List[torch.Tensor]:
            results = []
            for rows in (2, 5):  # two shapes: dynamic cells keep one graph
                x = torch.randn(rows, 4, requires_grad=grad)
                with torch.set_grad_enabled(grad):
                    out = compiled(x) if module else compiled(x, params[0])
                results.append(out)
                if grad:
                    out.sum().backward()
                    results.append(x.grad)
            return results + ([p.grad for p in params] if grad else [])

        return run

    return make


# ---- graph breaks, several functions, recompiles, real models ----


def inner_with_break(x: torch.Tensor) -> torch.Tensor:
    y = x * 2
    print("graph break inside a nested call")
    return y + 1


def outer_with_break(x: torch.Tensor) -> torch.Tensor:
    z = inner_with_break(x.cos())
    if z.sum() > 0:
        z = z - 1
    return z * 3


def nested_breaks() -> Run:
    compiled = torch.compile(outer_with_break, backend=BACKEND)
    return lambda: [compiled(torch.randn(6)), compiled(-torch.ones(6))]


def first_fn(a: torch.Tensor) -> torch.Tensor:
    return torch.tanh(a) * 2


def second_fn(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return (a - b).abs().mean(dim=0)


def several_functions() -> Run:
    one = torch.compile(first_fn, backend=BACKEND)
    two = torch.compile(second_fn, backend=BACKEND)
    return lambda: [one(torch.randn(3, 2)), two(torch.randn(3, 2), torch.randn(3, 2))]


def recompiled_fn(a: torch.Tensor) -> torch.Tensor:
    b = a.exp()
    print("graph break between the two graphs of each compile")
    return b - a


def recompiles() -> Run:
    compiled = torch.compile(recompiled_fn, backend=BACKEND, dynamic=False)
    return lambda: [compiled(torch.randn(3)), compiled(torch.randn(7)),
                    compiled(torch.randn(3, dtype=torch.float64))]


class TransformerBlock(nn.Module):
    def __init__(self, dim: int = 16, heads: int = 2) -> None:
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attention = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.norm1(x)
        x = x + self.attention(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


class SmallCNN(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.head = nn.Linear(4 * 4 * 4, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x).flatten(1))


def trained_two_steps(model_class: Callable[[], nn.Module], shape: Tuple[int, ...]
                      ) -> Callable[[], Run]:
    def make() -> Run:
        torch.manual_seed(2)
        model = model_class()
        compiled = torch.compile(model, backend=BACKEND)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

        def run() -> List[torch.Tensor]:
            losses = []
            for _ in range(2):
                optimizer.zero_grad()
                loss = compiled(torch.randn(*shape)).square().mean()
                loss.backward()
                optimizer.step()
                losses.append(loss)
            return losses + list(model.parameters())

        return run

    return make


def constants_fn(x: torch.Tensor) -> Tuple[torch.Tensor, torch.device, torch.dtype, slice]:
    return x + 1, x.device, x.dtype, slice(1, 3)


def unmarshallable_constants() -> Run:
    """Dynamo's transformed code holds the device, dtype and slice it
    returns as constants, which marshal cannot write."""
    compiled = torch.compile(constants_fn, backend=BACKEND)

    def run() -> List[torch.Tensor]:
        x = torch.randn(4)
        y, device, dtype, part = compiled(x)
        return [y, x[part], torch.tensor([device == x.device, dtype == x.dtype])]

    return run


def compiled_lambda() -> Run:
    """A lambda with a graph break: its resume function's code is named
    torch_dynamo_resume_in_<lambda>_at_N."""
    compiled = torch.compile(lambda x: (print("graph break in a lambda") or x.sin()) + 1,
                             backend=BACKEND)
    return lambda: [compiled(torch.randn(3)), compiled(torch.randn(3))]


def raising_blocks() -> Dict[str, Any]:
    """An exception inside prepare_debug and inside debug leaves torch as
    it was, and the dump is still written."""
    compiled = torch.compile(first_fn, backend=BACKEND)
    before = torch_state()
    dump_dir = os.path.join(OUT, "raising")
    raised = 0
    for context in (lambda: unpyc.prepare_debug(dump_dir),
                    lambda: unpyc.debug(dump_dir, pause=False)):
        torch._dynamo.reset()
        try:
            with context():
                compiled(torch.randn(2))
                raise KeyError("the user's error")
        except KeyError:
            raised += 1
    return {"name": "raising", "dump_dir": dump_dir, "raised": raised,
            "restored": torch_state() == before, "functions": ["first_fn"]}


def main() -> None:
    report: List[Dict[str, Any]] = []
    for grad in (True, False):
        for dynamic in (False, True):
            for module in (False, True):
                name = "%s-%s-%s-%s" % (BACKEND, "grad" if grad else "nograd",
                                        "dynamic" if dynamic else "static",
                                        "module" if module else "function")
                report.append(compare(name, matrix_cell(grad, dynamic, module), {
                    "grad": grad, "dynamic": dynamic, "module": module,
                    "functions": [] if module else ["small_fn"],
                    "guarded": [] if module else ["L['x']", "L['w']"]}))
    report.append(compare("nested_breaks", nested_breaks, {
        "functions": ["outer_with_break", "inner_with_break"], "guarded": ["L['x']"],
        "graph_breaks": True, "resumes": True}))
    report.append(compare("several_functions", several_functions, {
        "functions": ["first_fn", "second_fn"], "guarded": ["L['a']", "L['b']"]}))
    report.append(compare("recompiles", recompiles, {
        "functions": ["recompiled_fn"], "guarded": ["L['a']"], "recompiled": True,
        "graph_breaks": True, "resumes": True}))
    report.append(compare("transformer_block", trained_two_steps(
        TransformerBlock, (2, 5, 16)), {"functions": [], "grad": True}))
    report.append(compare("small_cnn", trained_two_steps(SmallCNN, (2, 1, 8, 8)), {
        "functions": [], "grad": True}))
    report.append(compare("constants", unmarshallable_constants, {
        "functions": ["constants_fn"], "guarded": ["L['x']"]}))
    report.append(compare("lambda", compiled_lambda, {
        "functions": ["lambda_"], "guarded": ["L['x']"], "graph_breaks": True,
        "resumes": True}))
    report.append(raising_blocks())
    with open(os.path.join(OUT, "report.json"), "w") as f:
        json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
