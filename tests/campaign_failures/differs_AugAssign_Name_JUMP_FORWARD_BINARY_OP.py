# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:385, differs on 3.12:
# differs: AugAssign (Name): JUMP_FORWARD -> BINARY_OP
0 .name_5 &= unique_name_1 if unique_name_0 else 0
pass
pass
