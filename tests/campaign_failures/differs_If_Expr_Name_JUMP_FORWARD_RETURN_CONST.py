# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:528, differs on 3.13:
# differs: If/Expr (Name): JUMP_FORWARD -> RETURN_CONST
if {0}:
    unique_name_0
else:
    pass
pass
pass
pass
