# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:370, differs on 3.11:
# differs: Try/Expr (Name): JUMP_FORWARD -> LOAD_CONST
try:
    unique_name_1
except:
    pass
pass
