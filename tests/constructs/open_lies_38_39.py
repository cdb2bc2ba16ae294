"""The unmarked lies still open on 3.8 / 3.9 at the end of stop 31: each runs differently from its output there, with no mark (listed in known_failures/3.8.txt and 3.9.txt with that reason, so that the suite counts them and a fix shows as FIXED).  All come from 3.8-3.9 peephole.c jump threading meeting a try (tests/realworld/FAILURES.md).  Minimal forms of tkinter test_tab_identifiers, subprocess.Popen._wait.  (Fixed in stop 32 and moved: tarfile.TarFile.next to loop_try_break_threaded.py, lib2to3 refactor._detect_future_features to loop_if_threaded.py, idlelib pyparse Parser._study1 to loop_exit_jumps.py.)"""


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
