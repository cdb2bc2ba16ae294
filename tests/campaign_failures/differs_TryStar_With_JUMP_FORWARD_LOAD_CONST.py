# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:147, differs on 3.11:
# differs: TryStar/With: JUMP_FORWARD -> LOAD_CONST
try:
    unique_name_0
except* 0:
    pass
finally:
    with 0:
        pass
pass
