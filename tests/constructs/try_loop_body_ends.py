"""A try statement ending a loop body, with no else part: 3.10 threads the
body's way out straight to the loop header, which once read as `else:
continue` and recompiled to a jump to a jump of its own (ast.iter_fields,
concurrent.futures Future._invoke_callbacks, ~300 functions of the 3.10
stdlib)."""


def handler_runs_off(callbacks, log):
    for callback in callbacks:
        try:
            callback()
        except Exception:
            log.append(callback)


def handler_passes(node, fields):
    for field in fields:
        try:
            yield field, getattr(node, field)
        except AttributeError:
            pass


def named_handlers(xs, log):
    for x in xs:
        try:
            x.close()
        except OSError as e:
            if e.errno:
                log.append(e)
        except KeyError:
            raise
        except Exception:
            continue


def in_while_loop(q, log):
    while q:
        try:
            log.append(q.pop())
        except IndexError:
            break


def after_if_continue(xs, log):
    for x in xs:
        if not x:
            log.append(x)
            continue
        try:
            x.run()
        except OSError:
            log.append(None)
