"""Module-level and class-level loops whose break the compiler replaced by a copy of the implicit `return None` that ends the body, past the loop's else part (issue 16; was marked "a return outside a function")."""

while a:
    if b:
        break
else:
    z = 3

if c:
    for x in y:
        if b:
            break
    else:
        z = 3
        if z:
            h()


class WhileElse:
    while a:
        if b:
            break
    else:
        z = 3


class ForElseIf:
    for x in y:
        if b:
            break
    else:
        z = 3
        if z:
            h()


def break_skips_else(xs):
    for x in xs:
        if x:
            break
    else:
        return 3

