# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:134, differs on 3.13:
# differs: While/Break: JUMP_FORWARD -> RETURN_CONST
while unique_name_0:
    break
else:
    pass
pass
pass
pass
