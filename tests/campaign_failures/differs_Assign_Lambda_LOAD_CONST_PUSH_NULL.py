# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:158, differs on 3.11:
# differs: Assign (Lambda): LOAD_CONST -> PUSH_NULL
() = lambda: 0
0()
