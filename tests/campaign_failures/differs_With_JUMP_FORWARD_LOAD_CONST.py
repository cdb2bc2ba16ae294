# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:16, differs on 3.11:
# differs: With: JUMP_FORWARD -> LOAD_CONST
with 0:
    pass
pass
