# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:724, differs on 3.13:
# differs: If/Expr (Name): JUMP_FORWARD -> LOAD_NAME
if unique_name_0:
    unique_name_1
else:
    unique_name_2
unique_name_3
pass
