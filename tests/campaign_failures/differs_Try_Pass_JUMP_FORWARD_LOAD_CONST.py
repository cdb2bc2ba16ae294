# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:1, differs on 3.11:
# differs: Try/Pass: JUMP_FORWARD -> LOAD_CONST
try:
    pass
except:
    pass
pass
