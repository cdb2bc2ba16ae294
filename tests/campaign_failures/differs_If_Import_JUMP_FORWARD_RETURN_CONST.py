# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:617, differs on 3.13:
# differs: If/Import: JUMP_FORWARD -> RETURN_CONST
if unique_name_0:
    import name_3
else:
    unique_name_1
pass
pass
pass
