# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:551, differs on 3.13:
# differs: TryStar/Pass: JUMP_FORWARD -> RETURN_CONST
try:
    raise
except* 0:
    pass
finally:
    pass
pass
pass
pass
