# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:4898, differs on 3.13:
# differs: TryStar: JUMP_FORWARD -> RETURN_CONST
try:
    raise
except* 0:
    pass
pass
pass
pass
