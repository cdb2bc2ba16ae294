# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:16, differs on 3.12:
# differs: With: JUMP_BACKWARD -> RETURN_CONST
with 0:
    pass
pass
pass
pass
pass
pass
