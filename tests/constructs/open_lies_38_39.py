"""The unmarked lies still open on 3.8 / 3.9 at the end of stop 31: each runs differently from its output there, with no mark (listed in known_failures/3.8.txt and 3.9.txt with that reason, so that the suite counts them and a fix shows as FIXED).  All come from 3.8-3.9 peephole.c jump threading meeting a try, a while / else or an or-test (tests/realworld/FAILURES.md).  Minimal forms of tarfile.TarFile.next, lib2to3 refactor._detect_future_features, idlelib pyparse Parser._study1.  (break_in_try_for and break_in_finally_if, from tkinter test_tab_identifiers and subprocess.Popen._wait, read now: try_body_end_if_loop_jump.py.)"""


def try_loop_break(self):
    while True:
        try:
            t = self.f()
        except A as e:
            if self.z:
                continue
        except B as e:
            if self.z:
                continue
            elif self.o == 0:
                raise R(str(e))
        except C:
            if self.o == 0:
                raise R('empty')
        break
    return t

def inner_while_or_break(adv, tp, v):
    while True:
        tp = adv()
        if tp:
            while tp:
                if tp or v:
                    break
                tp = adv()
        else:
            break
    return 1

def while_else_in_if(code, n, level, w):
    i = 0
    while i < n:
        ch = code[i]
        if ch == 'q':
            while i < n:
                ch = code[i]
                i += 1
                if ch == 'n':
                    if w == 0:
                        if level == 0:
                            g(i)
                        break
                    continue
                if ch == 'b':
                    i += 1
                    continue
            else:
                h()
            continue
        if ch == '#':
            i += 2
    return i
