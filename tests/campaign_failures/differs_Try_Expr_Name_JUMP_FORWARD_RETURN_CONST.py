# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:370, differs on 3.13:
# differs: Try/Expr (Name): JUMP_FORWARD -> RETURN_CONST
try:
    raise 0
except:
    pass
finally:
    unique_name_1
pass
pass
pass
