# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:424, differs on 3.11:
# differs: TryStar: JUMP_FORWARD -> LOAD_CONST
try:
    unique_name_0
except* 0:
    pass
else:
    unique_name_1
pass
