"""A try / except ending a loop body, the loop inside another try: the
ways out of the inner try, which 3.8 / 3.9 peephole.c threads to the
loop's header, go back to the dead jump after the inner try's cleanup
(normalize/unthread.c), which runs under the outer try's handler.  With
no handler given to it, that jump read as leaving the outer try: each way
out of the inner try came out as a `break`, the loop ended on the first
turn (3.8 / 3.9: test_tarfile test_pax_global_header, pydoc.cli)."""


def for_try_in_try_finally(self, tar):
    try:
        for key, val in tar.items():
            g(key)
            if key in F:
                try:
                    F[key](val)
                except (TypeError, ValueError):
                    self.fail('x')
    finally:
        tar.close()


def for_try_only_in_try_finally(self, tar):
    try:
        for key in tar:
            try:
                F[key](key)
            except E:
                self.fail('x')
    finally:
        tar.close()


def for_try_in_try_except(args):
    try:
        for arg in args:
            if not arg:
                print(arg)
                break
            try:
                help(arg)
            except ErrorDuringImport as value:
                print(value)
    except (ValueError, BadUsage):
        usage()
