"""Lies (output that runs differently, unmarked) found by audit34 on a fresh
real-world corpus (astroid, hypothesis, sqlalchemy, babel 2026 releases),
reduced; the open ones are listed as UNMARKED LIE in the known lists."""


def inlined_comprehension_in_loop_handler(xs, out):
    """3.12/3.13 printed the handler as `continue`: the loop of the
    comprehension inlined there took the outer loop's breaks for its own
    and ended past the handler (hypothesis _array_helpers)."""
    for x in xs:
        try:
            f()
        except E:
            a = [n for n in out]
            g(a)


def multiline_ternary_true_arm_in_or(a, x, s, c):
    """The folded `else True` arm keeps a NOP for its line: the test read
    as nested ifs whose (x in c, not c) way falls off without the return
    (sqlalchemy decl_base._get_immediate_cls_attr).  Fixed on 3.10 / 3.11
    in stop 35 (is_pass_block: the NOP is on the line of the jump over
    it, no `else: pass`); prints the equivalent `not s or x in c`."""
    if a and (x is c
        or (
            (x in c if s else True)
            and not c
        )
    ):
        return x


def multiline_ternary_true_arm_alone(x, s, c):
    """Reduced: the same test alone, read on 3.10 / 3.11 as `if s: (if x
    in c: pass) / else: pass` + `if not c: return x`, which returns x
    where x is not in c."""
    if (
        (x in c if s else True)
        and not c
    ):
        return x


def loop_returning_in_try_after_same_return(m):
    """The for loop (its body always returns) vanished: `try: pass`
    (astroid bases._infer_method_result_truth).  Fixed in stop 35
    (structure_for)."""
    if m:
        if m:
            return U
        try:
            for v in m:
                return v
        except E:
            pass
    return U


def loop_returning_in_try_after_if_return(m):
    """Reduced: the for statement took its start from the `return U`
    before it (the walk sets where a statement starts only after a loop
    header), so the try took it for the clause's copy of `return U`."""
    if m:
        return U
    try:
        f()
        for v in m:
            return v
    except E:
        pass
    return U


def try_return_then_else_try_return(a):
    """The else part was printed after the if: 3.12 lays the handlers out
    cold, so the then part ends in a return (babel dates.get_timezone).
    Marked on 3.12 / 3.13 at stop 34, recovered since stop 35 (lie35a:
    structure_if reads the else part up to where the then part goes on)."""
    if a:
        try:
            return f(a)
        except E:
            x = 1
    else:
        try:
            return g(a)
        except F:
            x = 2
    raise L(a, x)


def try_else_if_try_return_else_return(c, k):
    """The else part `c[k] = 0; return 0` is printed after the second try,
    where the source goes on to the code after the try statement
    (hypothesis engine.cached_test_function)."""
    try:
        d = f()
    except P:
        pass
    else:
        if d > 1:
            try:
                return c[k]
            except KeyError:
                pass
        else:
            c[k] = 0
            return 0
        try:
            return c[k]
        except KeyError:
            pass
    x = g()
    h(x)
    return x.r()


def nested_if_try_return_else_return(a, c, k):
    """Reduced from the one above (lie35a): the if in the then part of an
    if; printed its else part after the second try, where the source goes
    on past the outer if."""
    if a:
        if c:
            try:
                return c[k]
            except KeyError:
                pass
        else:
            c[k] = 0
            return 0
        try:
            return c[k]
        except KeyError:
            pass
    x = g()
    return x


def try_else_if_try_return_else_return_then_call(c, k):
    """Reduced from the one above (lie35a): the then part goes on to a
    call, not a try; printed its else part after the call."""
    try:
        d = f()
    except P:
        pass
    else:
        if d > 1:
            try:
                return c[k]
            except KeyError:
                pass
        else:
            c[k] = 0
            return 0
        h(d)
    x = g()
    return x


def with_if_try_return_else_return(a, c, k):
    """Reduced from the one above (lie35a): in a with body the then part
    goes on past the with's exit (3.12 / 3.13 printed the else part after
    the second try, and marked the with's exit block left over)."""
    with a:
        if c:
            try:
                return c[k]
            except KeyError:
                pass
        else:
            c[k] = 0
            return 0
        try:
            return c[k]
        except KeyError:
            pass
    x = g()
    return x


def loop_try_return_in_handler_with_finally_if(hooks, m, c):
    """The loop's inner try is dropped: `for hook in hooks: return
    hook(m)` (astroid manager.ast_from_module_name)."""
    try:
        return g(m)
    except E as e:
        for hook in hooks:
            try:
                return hook(m)
            except E:
                pass
        raise e
    finally:
        if c:
            h()


def elif_chain_continue_in_while(args, ops):
    """3.8/3.9: the `ops.append(2)` way had no continue in the output and
    ran on into `if a.is_Pow` (sympy function.count_ops): peephole.c had
    threaded its jump to the `continue` through to the loop's top.  Fixed
    stop 35 (ifends.c)."""
    while args:
        a = args.pop()
        if a.is_Rational:
            ops.append(1)
        elif a.is_Add:
            if a.n == 1:
                ops.append(2)
            elif a.neg:
                ops.append(3)
            continue
        if a.is_Pow:
            ops.append(4)
    return ops


def elif_chain_continue_in_for(args, ops):
    """The same in a for loop, an elif chain of three."""
    for a in args:
        if a.is_Rational:
            ops.append(1)
        elif a.is_Add:
            if a.n == 1:
                ops.append(2)
            elif a.n == 2:
                ops.append(5)
            elif a.neg:
                ops.append(3)
            continue
        if a.is_Pow:
            ops.append(4)
    return ops


def if_else_continue_in_while(args, ops):
    """An if / else part before the `continue`, code after the if."""
    while args:
        a = args.pop()
        if a.is_Add:
            if a.n == 1:
                ops.append(2)
            else:
                ops.append(3)
            continue
        ops.append(4)
    return ops


def elif_chain_continue_in_try_body(args, ops):
    """The if and its `continue` in a try body, code after the try."""
    for a in args:
        try:
            if a.n == 1:
                ops.append(2)
            elif a.neg:
                ops.append(3)
            continue
        except KeyError:
            ops.append(5)
        ops.append(4)
    return ops


def elif_chain_continue_then_loop(args, ops):
    """Code after the `continue` that starts an inner loop."""
    while args:
        a = args.pop()
        if a.is_Add:
            if a.n == 1:
                ops.append(2)
            elif a.neg:
                ops.append(3)
            continue
        while a.n:
            a.n -= 1
    return ops


def nested_if_continue_in_elif_in_for(self, names, f, os):
    """An if in the if before the `continue` (stdlib zipfile
    PyZipFile.writepy): the elif's test, threaded to the loop's top too, is
    no test of the inner if's condition (marked while the fix above took it
    for one)."""
    for name in names:
        if os.path.isdir(name):
            if os.path.isfile(name):
                self.writepy(name)
        elif name.endswith(".py"):
            if f and not f(name):
                if self.debug:
                    print("skipped", name)
                continue
            self.write(name)
