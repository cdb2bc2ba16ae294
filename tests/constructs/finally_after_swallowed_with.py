"""A try/finally around nested withs whose body always returns: the try
body goes on only where the inner with's handler goes when __exit__
swallows, through the outer with's __exit__ call and a jump to the copy of
the finally body, past the unprotected copies on the returns' ways out
(3.8-3.10: the copy was looked for at the __exit__ call, and the code after
the try marked unrecovered; stdlib 3.9 test_shutil)."""


def sendfile_supported(a, b, g):
    try:
        with a:
            with b:
                try:
                    g()
                except OSError:
                    return False
                else:
                    return True
    finally:
        g()


def with_items_then_finally(a, b, g):
    try:
        with a, b:
            try:
                return g()
            except OSError:
                return None
    finally:
        g()
