# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:60, differs on 3.11:
# differs: Expr (Name): LOAD_GLOBAL -> PUSH_NULL
global name_0
name_0()
