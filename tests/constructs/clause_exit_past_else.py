"""Except clauses that fall off their end, the try ending a loop body: 3.8-3.9 peephole.c threaded the clause's jump to the try's end through the loop's jump back, after an else part (reached from it) or after a bare `except:` clause's unreachable reraise; read as `continue`, which 3.8 / 3.9 follow with unreachable code (stdlib functools.update_wrapper, test_urllib tearDown; normalize/elseexit.c, unthread.c)."""


def clause_pass_else(wrapper, wrapped, assigned):
    for attr in assigned:
        try:
            value = getattr(wrapped, attr)
        except AttributeError:
            pass
        else:
            setattr(wrapper, attr, value)
    return wrapper


def clause_body_else_if(self, items):
    kwargs = {}
    for name, param in items:
        try:
            arg = self.arguments[name]
        except KeyError:
            pass
        else:
            if param.kind == 4:
                kwargs.update(arg)
            else:
                kwargs[name] = arg
    return kwargs


def bare_except_pass(self):
    for each in self.files:
        try:
            os.remove(each)
        except:
            pass


def bare_except_else(self, n):
    for i in range(n):
        try:
            f = open_it(i)
            f.close()
        except:
            self.errors += 1
        else:
            self.ok += 1


def while_bare_except_if_raise(xs, c):
    while xs:
        try:
            g(xs.pop())
        except:
            if c:
                raise


def clause_else_break(fd):
    for i in range(10):
        try:
            os.fstat(fd + i)
        except OSError:
            pass
        else:
            break
    return i


def clause_else_inner_loop_break(xs):
    for x in xs:
        try:
            f = g(x)
        except E:
            h(1)
        else:
            for q in f:
                if q:
                    break


def clause_else_continue(xs):
    for x in xs:
        try:
            g(x)
        except E:
            h(1)
        else:
            y()
            continue


def finally_continue_after_break(count):
    while count < 2:
        count += 1
        try:
            break
        finally:
            continue
    return count


def finally_continue_then_break(count):
    while count < 2:
        count += 1
        try:
            pass
        finally:
            continue
        break
    return count
