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


def return_true_false_in_loop_in_finally(leases, blocking, log):
    """kazoo Semaphore._inner_acquire (3.10, 3.12, 3.13): `return True`
    and `return False` in a while True loop in a try / finally are printed
    as two `break`s and one `return False` after the loop.
    return_true_false_in_loop_in_finally([True], True, []): True from the
    source, False from the output."""
    it = iter(leases)
    try:
        while True:
            if next(it):
                return True
            if blocking:
                log.append("wait")
            else:
                return False
    finally:
        log.append("release")


def break_after_try_else_if(items, method):
    """httplib2 Http._conn_request (3.11): a while loop whose try-else ends
    in an `if`, then `break` after the try: the output breaks only where
    the `if` is false and goes round again where it is true.
    break_after_try_else_if("abcd", "GET"): ["b", "decoded"] from the
    source, ["b", "decoded", "c", "decoded", "d", "decoded"] from the
    output (httplib2 sends every GET twice)."""
    i = 0
    out = []
    while i < 3:
        i += 1
        try:
            x = items[i]
        except IndexError:
            continue
        else:
            out.append(x)
            if method != "HEAD":
                out.append("decoded")
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
