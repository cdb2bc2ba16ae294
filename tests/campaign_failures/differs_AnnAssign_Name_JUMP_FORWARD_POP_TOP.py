# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:288, differs on 3.11:
# differs: AnnAssign (Name): JUMP_FORWARD -> POP_TOP
unique_name_0: 0
(unique_name_1): unique_name_3 if unique_name_2 else 0
