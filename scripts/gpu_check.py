"""The explorer on a GPU (issue 15's GPU check; CI has no GPU).

Runs the SPEC's toy example and a TransformerEncoderLayer(64, 4, 128)
training on DEVICE with the inductor backend (Triton kernels on CUDA):
once without unpyc, under unpyc.prepare_debug, and under unpyc.debug(),
compares the outputs, checks that debug() ran the files prepare_debug wrote
(no "changed under debug()" warning, the files unchanged), and lists the
dumped Inductor modules holding Triton kernels.  Then, in a subprocess
driven through pdb, a breakpoint set in the dumped Inductor module of the
toy example (prepare_debug's file) must be hit under debug().

    python scripts/gpu_check.py [--device cuda|cpu] OUT_DIR

Prints one line per check and "N passed, N failed" at the end; exits 1 on
any failure.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Callable, List, Tuple

import torch

import unpyc

RESULTS: List[Tuple[str, bool, str]] = []


def check(name: str, ok: bool, detail: str = "") -> None:
    RESULTS.append((name, ok, detail))
    print("%s %s%s" % ("PASS" if ok else "FAIL", name, (": " + detail) if detail else ""),
          flush=True)


def toy_run(device: str) -> Callable[[], List[torch.Tensor]]:
    @torch.compile(backend="inductor")
    def toy_example(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        x = a / (torch.abs(a) + 1)
        if b.sum() < 0:
            b = b * -1
        return x * b

    def run() -> List[torch.Tensor]:
        torch.manual_seed(0)
        weight = torch.randn(64, device=device, requires_grad=True)
        outputs = []
        for step in range(2):
            b = torch.randn(64, device=device) * (-1 if step == 0 else 1)
            loss = toy_example(weight, b).sum()
            loss.backward()
            outputs += [loss.detach(), weight.grad.clone()]
        return outputs

    return run


def encoder_run(device: str) -> Callable[[], List[torch.Tensor]]:
    def run() -> List[torch.Tensor]:
        torch.manual_seed(0)
        layer = torch.nn.TransformerEncoderLayer(64, 4, 128, dropout=0.0,
                                                 batch_first=True).to(device)
        compiled = torch.compile(layer, backend="inductor")
        optimizer = torch.optim.SGD(layer.parameters(), lr=0.01)
        outputs = []
        for _ in range(2):
            optimizer.zero_grad()
            loss = compiled(torch.randn(2, 8, 64, device=device)).square().mean()
            loss.backward()
            optimizer.step()
            outputs.append(loss.detach())
        return outputs + [p.detach().clone() for p in layer.parameters()]

    return run


def gpt2_run(device: str) -> Callable[[], List[torch.Tensor]]:
    """A 1-layer GPT-2 from a config (random weights), trained two steps."""
    from transformers import GPT2Config, GPT2LMHeadModel

    def run() -> List[torch.Tensor]:
        torch.manual_seed(0)
        config = GPT2Config(n_layer=1, n_embd=32, n_head=2, vocab_size=128, n_positions=16,
                            resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0)
        model = GPT2LMHeadModel(config).to(device)
        compiled = torch.compile(model, backend="inductor")
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        outputs = []
        for _ in range(2):
            optimizer.zero_grad()
            ids = torch.randint(0, 128, (2, 8), device=device)
            loss = compiled(input_ids=ids, labels=ids).loss
            loss.backward()
            optimizer.step()
            outputs.append(loss.detach())
        return outputs + [p.detach().clone() for p in model.parameters()]

    return run


def same(a: List[torch.Tensor], b: List[torch.Tensor]) -> bool:
    return len(a) == len(b) and all(torch.allclose(x, y, atol=1e-5) for x, y in zip(a, b))


def scenario(name: str, make: Callable[[str], Callable[[], List[torch.Tensor]]],
             device: str, out: Path) -> None:
    dump = out / name
    torch._dynamo.reset()
    reference = make(device)()
    torch._dynamo.reset()
    with unpyc.prepare_debug(str(dump)):
        dumped = make(device)()
    prepared = {p.name: p.read_text() for p in dump.glob("*.py")
                if not p.name.startswith("full_code_for_")}
    torch._dynamo.reset()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with unpyc.debug(str(dump), pause=False):
            debugged = make(device)()
    check(name + ": results equal under prepare_debug", same(reference, dumped))
    check(name + ": results equal under debug()", same(reference, debugged))
    changed = [str(w.message) for w in caught if "changed under debug()" in str(w.message)]
    check(name + ": debug() ran prepare_debug's files", not changed, "; ".join(changed)[:500])
    rewritten = [n for n, text in prepared.items() if (dump / n).read_text() != text]
    check(name + ": no dumped file rewritten", not rewritten, ", ".join(rewritten))
    kernels = [p.name for p in dump.glob("*.inductor_*.py")
               if re.search(r"@triton\.jit|async_compile\.(triton|cpp)", p.read_text())]
    check(name + ": Inductor modules with kernels dumped", bool(kernels), ", ".join(kernels))
    for path in dump.glob("*.py"):
        try:
            compile(path.read_text(), str(path), "exec", dont_inherit=True)
        except SyntaxError as error:
            check(name + ": %s compiles" % path.name, False, str(error))


BREAKPOINT_PROGRAM = """
import sys, torch, unpyc
sys.path.insert(0, %(here)r)
from gpu_check import toy_run
with unpyc.prepare_debug(%(dump)r):
    toy_run(%(device)r)()
torch._dynamo.reset()
with unpyc.debug(%(dump)r):  # pauses: the driver sets its breakpoint
    print("RESULT", float(toy_run(%(device)r)()[0]))
"""


def breakpoint_in_inductor_module(device: str, out: Path) -> None:
    dump = out / "pdb"
    program = out / "pdb_program.py"
    program.write_text(BREAKPOINT_PROGRAM % {"here": str(Path(__file__).parent),
                                             "dump": str(dump), "device": device})
    process = subprocess.Popen([sys.executable, "-u", str(program)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdin is not None and process.stdout is not None
    transcript = ""

    def until_prompt() -> str:
        nonlocal transcript
        seen = ""
        while not seen.endswith("(Pdb) "):
            char = process.stdout.read(1)  # type: ignore[union-attr]
            if not char:
                break
            seen += char
        transcript += seen
        return seen

    def send(command: str) -> str:
        process.stdin.write(command + "\n")  # type: ignore[union-attr]
        process.stdin.flush()  # type: ignore[union-attr]
        return until_prompt()

    until_prompt()
    modules = sorted(dump.glob("*.inductor_forward.py"))
    line = next((n for n, text in enumerate(modules[0].read_text().splitlines(), 1)
                 if re.match(r"^        \S.*= args$", text)), 0) if modules else 0
    hit = False
    if line:
        send("break %s:%d" % (modules[0], line))
        reply = send("continue")
        hit = "> %s(%d)" % (modules[0], line) in reply
        if hit:
            printed = send("p args")
            hit = "tensor(" in printed
    process.stdin.write("continue\n")
    process.stdin.close()
    transcript += process.stdout.read()
    process.wait(timeout=600)
    check("pdb: breakpoint in prepare_debug's Inductor module hit under debug()", hit,
          "" if hit else transcript[-1500:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cuda")
    parser.add_argument("out")
    args = parser.parse_args()
    if args.device == "cuda" and not torch.cuda.is_available():
        print("gpu_check: no CUDA device; use --device cpu to check the logic on the CPU")
        sys.exit(2)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    print("gpu_check: torch %s, device %s%s" % (
        torch.__version__, args.device,
        " (%s)" % torch.cuda.get_device_name() if args.device == "cuda" else ""), flush=True)
    scenario("toy_example", toy_run, args.device, out)
    scenario("transformer_encoder_layer", encoder_run, args.device, out)
    try:
        import transformers  # noqa: F401
    except ImportError:
        print("gpu_check: transformers is not installed: GPT-2 left out", flush=True)
    else:
        scenario("gpt2", gpt2_run, args.device, out)
    breakpoint_in_inductor_module(args.device, out)
    failed = sum(not ok for _, ok, _ in RESULTS)
    print("%d passed, %d failed" % (len(RESULTS) - failed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
