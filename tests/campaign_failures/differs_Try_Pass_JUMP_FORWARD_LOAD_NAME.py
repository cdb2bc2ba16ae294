# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:85, differs on 3.11:
# differs: Try/Pass: JUMP_FORWARD -> LOAD_NAME
try:
    pass
except:
    pass
unique_name_1
