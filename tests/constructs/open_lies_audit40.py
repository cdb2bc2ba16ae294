"""Open lies found by audit40 (stop 40) in holdout 7 (tests/realworld/holdout7.txt).

graphql-core graphql.language.lexer Lexer.read_comment (3.8, 3.9): a while
loop whose body is `if a: break`, then `if b: ...` / `elif c: ...` / `else:
break`, is printed as `if a: pass` / `elif b: ...` / `elif c: ...; continue`
and a `break` after the chain: the `b` arm now falls into that `break`, so the
loop stops after its first step where the source goes round.  Exit 0,
unmarked.  scan_while_letters_or_digits("abc", 0) gives 3 from the source and
1 from the output on 3.8 and 3.9 (3.10-3.13 are equivalent).  It takes all
of: a `while` with a test (under `while True:` or `for` the same body is
printed right), the first `if a: break`, two arms before the `else: break`
(with one arm, or without the `else: break`, it is printed right).

IPython core.magics.execution ExecutionMagics.run (3.8, 3.9): in a try whose
finally holds an if/else, an inner try whose body ends in `if c: ...;
return` and whose handler falls through is printed with the `return` moved
to the inner try's `else:` part: the code after the inner try is skipped
whenever the body raised nothing, where the source runs it unless `c`.
Exit 0, unmarked.  return_in_try_under_finally_branches({"N": "3"}, [],
False) appends [3, "f"] from the source and ["f"] from the output on 3.8 and
3.9 (3.10-3.13 mark it).  The finally's if/else is what makes it lie: with
`if r: ...` alone, or a plain statement, as the finally body the output is
right.
"""


def scan_while_letters_or_digits(body, position):
    while position < len(body):
        char = body[position]
        if char in "\r\n":
            break
        if char.isalpha():
            position += 1
        elif char.isdigit():
            position += 2
        else:
            break
    return position


def return_in_try_under_finally_branches(opts, out, restore):
    try:
        try:
            nruns = int(opts["N"])
            if nruns < 1:
                out.append("bad")
                return
        except KeyError:
            nruns = 1
        out.append(nruns)
    finally:
        if restore:
            out.append("r")
        else:
            out.append("f")
