# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:152, differs on 3.13:
# differs: Try/Pass: JUMP_BACKWARD_NO_INTERRUPT -> RETURN_CONST
try:
    unique_name_0
except:
    pass
pass
pass
pass
