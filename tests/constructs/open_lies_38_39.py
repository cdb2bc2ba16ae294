"""The unmarked lies still open on 3.8 / 3.9 at the end of stop 31: each runs differently from its output there, with no mark (listed in known_failures/3.8.txt and 3.9.txt with that reason, so that the suite counts them and a fix shows as FIXED).  All come from 3.8-3.9 peephole.c jump threading meeting a try, a while / else or an or-test (tests/realworld/FAILURES.md).  Minimal forms of tkinter test_tab_identifiers, tarfile.TarFile.next, subprocess.Popen._wait, lib2to3 refactor._detect_future_features, idlelib pyparse Parser._study1."""


def break_in_try_for(nb):
    for i in range(5, 100, 5):
        try:
            if nb.tab(i) == 'a':
                break
        except E:
            pass
    else:
        fail()

def break_in_finally_if(self):
    while True:
        if self.x:
            self._lock.acquire()
            try:
                pid = self.w()
                if pid == self.pid:
                    self.h(pid)
                    break
            finally:
                self._lock.release()
        rem = self.rem()
        if rem <= 0:
            raise T()
    return 1

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
