# Shrunk by python -m unpyc.campaign --seed 4444 --generate-in-target from pysource-codegen@3.12:4444:109,
# differs on 3.12 / 3.13 (co_consts) and exit 9 without a mark in the text (main: the type parameter
# scope left in co_consts[0] by the dropped class printed as a bare `...`; fixed by recover/deadconst.c
# generic_statement, stop 44)
raise unique_name_0

class name_4[name_2]:
    pass
