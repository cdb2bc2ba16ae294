"""Constant returns in a with body inside a try / finally: the return
leaves through the copy of the with's exit, then the copy of the finally
body, and only then loads the constant (compile.c compiler_return), so the
exit copies were left unclaimed and marked, a false mark (test_shutil's
supports_file2file_sendfile, issue 16)."""


def ends_body(a):
    try:
        with a:
            return True
    finally:
        a.close()


def if_then_return(a):
    try:
        with a:
            if a:
                return False
            return True
    finally:
        a.close()


def else_return(a):
    try:
        with a:
            try:
                a()
            except OSError:
                pass
            else:
                return True
    finally:
        a.close()


def else_return_finally_if(a, b):
    try:
        with a as x:
            with b as y:
                try:
                    x(y)
                except OSError:
                    return False
                else:
                    return True
    finally:
        if a is not None:
            a.close()
