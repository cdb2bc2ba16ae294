# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:888, differs on 3.12:
# differs: Try/Pass: JUMP_BACKWARD -> LOAD_NAME
try:
    unique_name_0
except:
    pass
finally:
    unique_name_2
pass
pass
