"""`while` / a try / `break` after it: 3.8-3.9 peephole.c threaded the ways out of the try body and of each except clause through that break (an `except E as n:` clause's after its name's cleanup), leaving the break unreachable; read so, the clauses that fell out of the try looped again (stdlib tarfile.TarFile.next; lies until stop 32, normalize/unthread.c)."""


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


def tested_loop_clause_continue(self):
    while self.k:
        try:
            t = self.f()
        except A:
            if y():
                continue
        break
    return t
