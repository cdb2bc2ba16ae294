# Shrunk by python -m unpyc.campaign --seed 4242 from pysource-codegen:4242:52, differs on 3.8 / 3.9
# (main: the whole module left out, "unreachable exception code", exit 9; fixed by
# normalize/blocks.c walk_dead_tries, stop 42):
# differs: Raise: RAISE_VARARGS -> LOAD_CONST
raise
try:
    pass
except 0:
    pass
