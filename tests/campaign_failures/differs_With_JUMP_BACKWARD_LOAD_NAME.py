# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:854, differs on 3.12:
# differs: With: JUMP_BACKWARD -> LOAD_NAME
with 0:
    pass
unique_name_0
pass
pass
pass
