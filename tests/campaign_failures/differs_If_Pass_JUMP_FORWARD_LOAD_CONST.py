# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:79, differs on 3.11:
# differs: If/Pass: JUMP_FORWARD -> LOAD_CONST
if unique_name_0:
    pass
else:
    pass
pass
