"""Compiled functions that change the program's state and then graph-break
(issue 15): attributes of a global object, dict items, list mutation, del
of an attribute and an item, a closure, a nested function; an OrderedDict
subclass mutated, made and returned (as transformers' ModelOutput: Dynamo
rebuilds it with a for loop over its items), loops over a list of tensors
and over a tensor's rows, a graph break inside torch.no_grad().  Dynamo's
code for them keeps values on the stack across statements (engine/recover/
spill.c), so under debug() these run from decompiled source that is not
Dynamo's bytecode.

    python side_effect_patterns.py plain|prepare|debug DUMP_DIR BACKEND

prints one line, RESULT followed by the results and the global state as
JSON: the three modes must print the same line (tests/test_effects.py).
"""

from __future__ import annotations

import collections
import dataclasses
import json
import sys
from typing import Any, Callable, Dict, List, Tuple

import torch

import unpyc


class Holder:
    pass


class Output(collections.OrderedDict):  # type: ignore[type-arg]
    """A dict subclass, as transformers' ModelOutput is."""


@dataclasses.dataclass
class FieldsOutput(collections.OrderedDict):  # type: ignore[type-arg]
    """transformers' ModelOutput in small: a dataclass whose fields set
    are also its items."""

    first: Any = None
    second: Any = None

    def __post_init__(self) -> None:
        for each in dataclasses.fields(self):
            value = getattr(self, each.name)
            if value is not None:
                self[each.name] = value


def plain(value: Any) -> Any:
    if isinstance(value, dict):
        return [type(value).__name__] + [[k, plain(v)] for k, v in value.items()]
    return value.tolist() if torch.is_tensor(value) else value


def patterns() -> Tuple[List[Callable[[torch.Tensor], Any]], Callable[[], Dict[str, Any]],
                        Callable[[], None]]:
    """The functions, what the program's state is, and what each call
    needs set before it."""
    holder, deleted = Holder(), Holder()
    table: Dict[str, Any] = {}
    items: List[Any] = []
    counter = [0]
    ordered = Output()
    tensors = [torch.ones(4), torch.arange(4.0)]

    def attributes(x: torch.Tensor) -> torch.Tensor:
        holder.a = x * 2
        holder.busy = True
        y = x + 1
        print("graph break")
        return y * holder.a

    def dict_items(x: torch.Tensor) -> torch.Tensor:
        table["k"] = x * 3
        table["n"] = table.get("n", 0) + 1
        y = x - 1
        print("graph break")
        return y + table["k"]

    def list_mutation(x: torch.Tensor) -> torch.Tensor:
        items.append(x.sum())
        items.extend([1, 2])
        y = x * x
        print("graph break")
        items.append(len(items))
        return y

    def deletes(x: torch.Tensor) -> torch.Tensor:
        del deleted.gone
        del table["gone"]
        deleted.kept = x.sum()
        y = x.cos()
        print("graph break")
        return y + deleted.kept

    def closure(x: torch.Tensor) -> torch.Tensor:
        scale = 3

        def inner(t: torch.Tensor) -> torch.Tensor:
            counter[0] += 1
            return t * scale

        y = inner(x)
        print("graph break")
        return inner(y) + scale

    def nested_call(x: torch.Tensor) -> torch.Tensor:
        def helper(t: torch.Tensor) -> torch.Tensor:
            holder.inner = t + 1
            print("graph break inside helper")
            return t * 2

        return helper(x) + holder.inner

    def ordered_dict_items(x: torch.Tensor) -> torch.Tensor:
        ordered["a"] = x * 2
        ordered["b"] = x + 1
        print("graph break")
        return x - ordered["a"]

    def returned_output(x: torch.Tensor) -> Any:
        out = Output()
        out["a"] = x * 2
        print("graph break")
        out["b"] = x + 1
        return out

    def fields_output(x: torch.Tensor) -> torch.Tensor:
        out = FieldsOutput(first=x * 2, second=x + 1)
        print("graph break")
        return out["first"] + out["second"]

    def loop_over_list(x: torch.Tensor) -> torch.Tensor:
        for t in tensors:
            x = x + t
            items.append(t.sum())
        print("graph break")
        for t in tensors:
            x = x * t
        return x

    def loop_over_rows(x: torch.Tensor) -> torch.Tensor:
        total = x.sum()
        for row in x.reshape(2, 2):
            total = total + row.max()
            print("graph break inside the loop")
        return total

    def no_grad_block(x: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            y = x * 2
            print("graph break")
            z = y + 1
        return z

    def state() -> Dict[str, Any]:
        return {"holder": {k: plain(v) for k, v in sorted(vars(holder).items())},
                "deleted": {k: plain(v) for k, v in sorted(vars(deleted).items())},
                "table": {k: plain(v) for k, v in sorted(table.items())},
                "items": [plain(v) for v in items], "counter": counter,
                "ordered": plain(ordered)}

    def before_call() -> None:
        deleted.gone = 1
        table["gone"] = 1

    return [attributes, dict_items, list_mutation, deletes, closure, nested_call,
            ordered_dict_items, returned_output, fields_output, loop_over_list, loop_over_rows,
            no_grad_block], state, before_call


def run(backend: str) -> List[Any]:
    functions, state, before_call = patterns()
    results = []
    for function in functions:
        compiled = torch.compile(function, backend=backend)
        for x in (torch.arange(4.0), torch.arange(4.0) + 1):
            before_call()
            results.append([function.__name__, plain(compiled(x))])
    return [results, state()]


def main() -> None:
    mode, dump_dir, backend = sys.argv[1:4]
    if mode == "prepare":
        with unpyc.prepare_debug(dump_dir):
            outcome = run(backend)
    elif mode == "debug":
        with unpyc.debug(dump_dir):
            outcome = run(backend)
    else:
        outcome = run(backend)
    print("RESULT " + json.dumps(outcome, sort_keys=True))


if __name__ == "__main__":
    main()
