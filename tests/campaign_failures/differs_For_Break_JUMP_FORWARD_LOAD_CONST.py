# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:196, differs on 3.11:
# differs: For/Break: JUMP_FORWARD -> LOAD_CONST
for unique_name_0 in 0:
    break
else:
    pass
pass
