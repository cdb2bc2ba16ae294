# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:16, differs on 3.13:
# differs: With (Name): JUMP_BACKWARD_NO_INTERRUPT -> RETURN_CONST
with unique_name_0:
    pass
pass
pass
pass
