# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:603, differs on 3.11:
# differs: If/With: JUMP_FORWARD -> LOAD_CONST
if []:
    with 0:
        pass
    pass
