"""A `break` ends a try body in a loop whose except clauses go round it.

3.12's flowgraph.c push_cold_blocks_to_end lays the except clauses out
after all other code and drops the body's jump over them to the code
after the loop, so the loop's body falls into that code and the only way
round lies in the cold code; normalize/coldblocks.c unpush_cold_blocks
puts the clauses back where 3.11 has them, after the break's jump.  Found
by audit44 in holdout 11 (rq Worker.monitor_work_horse,
Queue.setup_dependencies): the break was moved after the try or dropped.
"""


def retry_handler_breaks_under_if(events, limit):
    """rq Worker.monitor_work_horse and BaseWorker.dequeue_job_and_maintain_ttl
    (3.12, 3.13 printed the try body's `break` after the try, so the
    handler never went round).
    retry_handler_breaks_under_if(["timeout", "ok"], 5): ["retry", "ok"]."""
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
    """rq Queue.setup_dependencies (3.12, 3.13 dropped the `break` ending
    the try body after a for loop that can return: endless loop).
    for_return_then_break_in_if([0, 0], [], None): None."""
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


def retry_in_for(events, limit):
    """The retry loop as a for loop over attempts."""
    log = []
    r = None
    for attempt in range(limit):
        try:
            r = events[attempt]
            if r == "timeout":
                raise TimeoutError()
            break
        except TimeoutError:
            if attempt > 2:
                break
            log.append("retry")
    log.append(r)
    return log


def retry_while_cond(events, limit):
    """The retry loop under a `while` test."""
    it = iter(events)
    log = []
    r = None
    while len(log) < limit:
        try:
            r = next(it)
            if r == "timeout":
                raise TimeoutError()
            break
        except TimeoutError:
            if len(log) > 3:
                break
            log.append("retry")
    log.append(r)
    return log


def retry_while_else(events, limit):
    """The retry loop with an else part."""
    it = iter(events)
    log = []
    r = None
    while len(log) < limit:
        try:
            r = next(it)
            if r == "timeout":
                raise TimeoutError()
            break
        except TimeoutError:
            log.append("retry")
    else:
        log.append("gave up")
    log.append(r)
    return log


def retry_nested(batches, limit):
    """The retry loop in a for loop, code after both."""
    log = []
    for events in batches:
        it = iter(events)
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
            except StopIteration:
                r = "end"
                break
        log.append(r)
    log.append("done")
    return log


def two_handlers_one_breaks(events, limit):
    """One handler breaks under an if, the other goes round."""
    it = iter(events)
    log = []
    while True:
        try:
            r = next(it)
            if r == "timeout":
                raise TimeoutError()
            if r == "down":
                raise ConnectionError()
            break
        except TimeoutError:
            if len(log) > limit:
                break
            log.append("retry")
        except ConnectionError:
            log.append("sleep")
    log.append(r)
    return log


def handler_goes_round_only(events):
    """The handler only goes round (no break in it)."""
    it = iter(events)
    log = []
    while True:
        try:
            r = next(it)
            if r == "timeout":
                raise TimeoutError()
            break
        except TimeoutError:
            log.append("retry")
    log.append(r)
    return log


def continue_or_raise_then_code(deps, log, pipeline):
    """for_return_then_break_in_if without the if / elif around it."""
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
    log.append("after")
    return None


def continue_or_raise_in_for(deps, pipelines):
    """The handler continues or raises, in a for loop."""
    log = []
    for p in pipelines:
        try:
            for d in deps:
                if d == p:
                    return d
            log.append(p)
            break
        except KeyError:
            if p is None:
                continue
            raise
    log.append("after")
    return log


def break_then_return_after(events, limit):
    """The code after the loop is a lone return."""
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
    return log


def else_break_handler_breaks(events, limit):
    """The break as the try's else part, the handler breaks under an if."""
    it = iter(events)
    log = []
    while True:
        try:
            r = next(it)
            if r == "timeout":
                raise TimeoutError()
        except TimeoutError:
            if len(log) > limit:
                break
            log.append("retry")
        else:
            break
    log.append(r)
    return log


def clauses_fall_to_break(events, ignore):
    """tarfile TarFile.next: the clauses fall through to a `break` after
    the try, one goes round under an if, one raises."""
    it = iter(events)
    r = None
    while True:
        try:
            r = next(it)
            if r == "timeout":
                raise TimeoutError()
            if r == "bad":
                raise ValueError()
        except TimeoutError:
            if ignore:
                continue
        except ValueError:
            if r == ignore:
                raise
        break
    return r
