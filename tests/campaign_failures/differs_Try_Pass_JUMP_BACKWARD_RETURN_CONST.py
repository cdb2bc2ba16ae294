# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:1, differs on 3.12:
# differs: Try/Pass: JUMP_BACKWARD -> RETURN_CONST
try:
    unique_name_0
except:
    pass
finally:
    pass
pass
pass
pass
