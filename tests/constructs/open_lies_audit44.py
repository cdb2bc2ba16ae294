"""Open unmarked lies found by audit44 in holdout 11 (stop 44), reduced.

Each function is the smallest shape found of one real function of
tests/realworld/holdout11.txt that main 13f4cf6 prints without a mark and
that runs differently from the source (confirmed by running the real
package with the decompiled module, or the function extracted with its
source; tests/realworld/AUDIT.md, "Holdout 11, stop 44").  The docstring
of each says which versions lie and gives an input on which the source
and the output differ.  Listed in known_failures/3.X.txt as UNMARKED LIE
where they lie; a fix moves each to the family of its shape.
"""


def break_after_for_else_continue(items, extra):
    """xmlschema XsdGroup.iter_decode (3.8, 3.9): in a while loop, a for
    loop that breaks, its `else: continue`, then `break`: the output drops
    the `break` after the for-else, so the code after it runs.
    break_after_for_else_continue([1, None], ["e"]): ["e"] from the
    source, ["e", None] from the output."""
    out = []
    while items:
        x = items.pop()
        if x is None:
            for e in extra:
                out.append(e)
                break
            else:
                continue
            break
        out.append(x)
        break
    return out




def break_in_handler_then_code(s, ends):
    """arpeggio Parser.pos_to_linecol (3.12): `while True: try: x` /
    `except ValueError: break` inside a try whose own handler catches
    ValueError, code after: the handler's `break` is printed `pass` (with
    `else: continue`), so the loop never ends.
    break_in_handler_then_code("a\\nb\\nc", []): 2 from the source; the
    output never returns."""
    if not ends:
        try:
            ends.append(s.index("\n"))
            while True:
                try:
                    ends.append(s.index("\n", ends[-1] + 1))
                except ValueError:
                    break
        except ValueError:
            pass
    n = len(ends)
    return n


def retry_handler_breaks_under_if(events, limit):
    """rq Worker.monitor_work_horse and BaseWorker.dequeue_job_and_maintain_ttl
    (3.12, 3.13): `while True: try: ...; break` whose handler breaks under
    an `if` and otherwise goes round, code after the loop: the output
    moves the `break` after the try, so the handler never goes round.
    retry_handler_breaks_under_if(["timeout", "ok"], 5): ["retry", "ok"]
    from the source, ["retry", "timeout"] from the output."""
    it = iter(events)
    log = []
    while True:
        try:
            r = next(it)
            if r == "timeout":
                raise TimeoutError()
            break
        except TimeoutError:
            if len(log) > limit:
                break
            log.append("retry")
    log.append(r)
    return log


def for_return_then_break_in_if(deps, log, pipeline):
    """rq Queue.setup_dependencies (3.12, 3.13): in an if with an elif,
    `while True: try: for ...: if d: return d` then `break`, `except E:
    if p is None: continue` / `raise`: the output drops the `break`, the
    loop goes round again (rq: for ever).
    for_return_then_break_in_if([0, 0], [], None): None from the source,
    "looped" from the output (the guard stops it after six rounds)."""
    if len(deps) > 0:
        while True:
            try:
                log.append("watch")
                if len(log) > 5:
                    return "looped"
                for d in deps:
                    if d:
                        return d
                break
            except KeyError:
                if pipeline is None:
                    continue
                raise
    elif pipeline is not None:
        log.append("multi")
    return None


def continue_in_nested_handler(obj, group, xsi):
    """xmlschema XsdAttributeGroup.iter_decode / iter_encode (3.13): a
    `continue` ending an except handler nested in a handler nested in a
    handler, in a for loop: the output puts it after the inner try, so the
    inner try's success path skips the rest of the loop body too.
    continue_in_nested_handler(["a", "xsi:b", "c"], {"a": 1, None: "any"},
    {}): [1, "any", "any"] from the source, [1, "any"] from the output
    (xmlschema drops an xsi: attribute matched by anyAttribute)."""
    out = []
    for name in obj:
        try:
            a = group[name]
        except KeyError:
            if name.startswith("xsi"):
                try:
                    a = xsi[name]
                except LookupError:
                    try:
                        a = group[None]
                    except KeyError:
                        out.append("not xsi")
                        continue
            else:
                try:
                    a = group[None]
                except KeyError:
                    out.append("not allowed")
                    continue
        out.append(a)
    return out
