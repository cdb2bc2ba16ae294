# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:779, differs on 3.13:
# differs: Try/Pass: JUMP_FORWARD -> RETURN_CONST
if []:
    try:
        pass
    except:
        pass
else:
    pass
pass
pass
pass
