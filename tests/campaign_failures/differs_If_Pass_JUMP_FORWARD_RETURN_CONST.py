# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:79, differs on 3.13:
# differs: If/Pass: JUMP_FORWARD -> RETURN_CONST
if unique_name_0:
    pass
else:
    pass
pass
pass
pass
