"""Jumps of a loop body that 3.8-3.9 peephole.c threaded to the loop's header or exit, read back as statements the source lacks: a printed `continue`, an if inverted into `if not c: continue`, an `else:` lost (stdlib stat.filemode, ctypes test_pep3118, rlcompleter, random.gammavariate, lib2to3 driver, base64.a85decode; mods38e)."""


def for_else_break_to_outer(mode, table_rows):
    perm = []
    for table in table_rows:
        for bit, char in table:
            if mode & bit == bit:
                perm.append(char)
                break
        else:
            perm.append("-")
    return "".join(perm)


def bare_except_raise_ends_body(xs):
    for t in xs:
        try:
            t.run()
        except:
            print(t)
            raise


def except_continue_then_if(getters):
    node = None
    for getter in getters:
        try:
            node = getter()
        except:
            continue
        if node is not None:
            return node
    return node


def or_break_not_last(matches, prefix):
    while True:
        matches.append(prefix)
        if matches or not prefix:
            break
        if prefix == '_':
            prefix = '__'
        else:
            prefix = None
    return matches


def elif_break_ends_body(p, x, random):
    while True:
        u = random()
        if p > 1.0:
            if u <= x:
                break
        elif u <= -x:
            break
    return u


def if_then_continue(tokens, prefix):
    lineno = 0
    for value in tokens:
        if value in ('#', '\n'):
            prefix += value
            if value.endswith('\n'):
                lineno += 1
                prefix = ''
            continue
        prefix = value
    return lineno, prefix


def if_then_break(v, m):
    while True:
        v.step()
        if m:
            if v and not m[-1]:
                m.pop()
            break
        v.next()
    return m


def else_continue_ends_body(xs, c, out):
    for x in xs:
        if c(x):
            out.append(x)
        else:
            continue
    return out


def elif_continue_else_raise(data, ignore, out):
    for x in data:
        if 33 <= x:
            out.append(x)
        elif x == 122:
            out.append(0)
        elif x in ignore:
            continue
        else:
            raise ValueError(x)
    return out


def nested_if_break_under_while_test(f, limit, frames):
    while f is not None:
        if limit is not None:
            if limit <= 0:
                break
            limit -= 1
        frames.append(f)
        f = f.f_back
    frames.reverse()


def if_with_try_before_loop(queue, init):
    if init is not None:
        try:
            init()
        except BaseException:
            queue.close()
            return
    while True:
        item = queue.get()
        if item is None:
            return
        del item


def try_if_return_in_loop(self, other):
    for k in self:
        try:
            if other[k] != self[k]:
                return False
        except KeyError:
            return False
    return True


def try_if_return_clause_continue(hints, check):
    for hint in hints:
        try:
            if check(hint):
                return True
        except TypeError:
            continue
    return False


def returning_if_else_then_elif(a, b, c):
    if a:
        if b:
            return 1
        else:
            return 2
    elif c:
        return 3
    return 4


def for_else_break_in_try_else(pairs, exceptions, connect):
    for pair in pairs:
        sock = None
        try:
            sock = connect(pair)
        except OSError as exc:
            exceptions.append(exc)
        except:
            raise
        else:
            break
    else:
        raise exceptions[0]
    return sock


def for_else_with_loops_in_else(stack, blocked, B, G, path, closed):
    while stack:
        nbrs = stack[-1]
        for w in nbrs:
            if w in blocked:
                path.append(w)
                break
        else:
            v = path.pop()
            if closed.pop():
                while v:
                    v = v.parent
            else:
                for w in G[v]:
                    B[w].add(v)


def else_break_ends_body_after_inner_while_else(rest, length, K, T, D):
    # A lie of the merged stop-33 engine on 3.8 / 3.9 (werkzeug
    # http.parse_options_header): the dead `else: break` was taken for the
    # loop's way out and printed as nothing.
    scan_pos = 0
    while scan_pos < length:
        if K(scan_pos):
            if T(scan_pos):
                pass
            elif rest:
                while scan_pos < length:
                    if rest:
                        break
                else:
                    break
        if D(scan_pos):
            scan_pos = 3
        else:
            break
    return scan_pos
