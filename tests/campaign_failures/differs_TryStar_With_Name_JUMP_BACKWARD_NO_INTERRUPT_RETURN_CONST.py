# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:147, differs on 3.13:
# differs: TryStar/With (Name): JUMP_BACKWARD_NO_INTERRUPT -> RETURN_CONST
try:
    unique_name_0
except* 0:
    pass
finally:
    with unique_name_1:
        pass
pass
pass
pass
