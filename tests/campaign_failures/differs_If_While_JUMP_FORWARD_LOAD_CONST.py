# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:775, differs on 3.11:
# differs: If/While: JUMP_FORWARD -> LOAD_CONST
if unique_name_0:
    while 0:
        pass
else:
    pass
pass
