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


# A break written last in the body: 3.8-3.10 unwind it (POP_TOP of the
# iterator, the loop's exit) before the handlers, where no else part goes
# (once read as `else: break`, _sitebuiltins _Printer.__setup).
def break_ends_body(self, filenames):
    data = None
    for filename in filenames:
        try:
            data = self.read(filename)
            break
        except OSError:
            pass
    return data


def break_ends_body_handler_raises(values):
    for value in values:
        try:
            high = bits(value)
            break
        except Exception:
            raise TypeError(value) from None
    return high


def break_ends_body_code_after(xs, log):
    for x in xs:
        try:
            d = x.read()
            break
        except OSError:
            pass
        log.append(x)
    return d
