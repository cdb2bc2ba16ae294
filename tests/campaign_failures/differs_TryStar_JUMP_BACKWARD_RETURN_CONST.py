# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:8, differs on 3.12:
# differs: TryStar: JUMP_BACKWARD -> RETURN_CONST
try:
    unique_name_0
except* 0:
    pass
finally:
    pass
    pass
    pass
pass
