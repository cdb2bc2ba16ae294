"""A finally body that returns a value: in the handler the return pops the
exception under the value (LOAD a; SWAP 2; POP_TOP; SWAP 2; POP_EXCEPT;
RETURN_VALUE), its copy on the normal way out of the try does not (LOAD
a; RETURN_VALUE); the copy was not recognized and the output marked,
equivalent (pip's vendored pyparsing ParseBaseException.__repr__, sympy
runtests, test_yield_from)."""


def finally_returns(a, f):
    try:
        f()
    finally:
        return a


def finally_returns_expression(a, f):
    try:
        f()
    finally:
        return a.b + 1


def finally_call_then_return(a, f, g):
    try:
        f()
    finally:
        g()
        return a


def clause_then_finally_returns(a, f, g):
    try:
        f()
    except ValueError:
        g()
    finally:
        return a


def finally_returns_in_loop(xs, f):
    for a in xs:
        try:
            f()
        finally:
            return a


def finally_return_over_body_return(a, f):
    try:
        return f()
    finally:
        return a + 1
