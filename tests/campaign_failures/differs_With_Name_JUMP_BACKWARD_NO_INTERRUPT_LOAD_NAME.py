# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:854, differs on 3.13:
# differs: With (Name): JUMP_BACKWARD_NO_INTERRUPT -> LOAD_NAME
with unique_name_0:
    pass
unique_name_1
pass
