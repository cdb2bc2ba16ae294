# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:553, differs on 3.11:
# differs: TryStar/AugAssign (Name): JUMP_FORWARD -> LOAD_CONST
try:
    unique_name_0
except* 0:
    pass
finally:
    unique_name_1 **= 0
pass
