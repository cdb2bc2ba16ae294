# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:21, differs on 3.11:
# differs: Expr (Name): JUMP_FORWARD -> POP_TOP
unique_name_1 if unique_name_0 else 0
pass
