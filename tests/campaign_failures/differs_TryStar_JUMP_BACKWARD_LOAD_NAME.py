# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:833, differs on 3.12:
# differs: TryStar: JUMP_BACKWARD -> LOAD_NAME
try:
    unique_name_0
except* 0:
    pass
finally:
    unique_name_1
    pass
pass
