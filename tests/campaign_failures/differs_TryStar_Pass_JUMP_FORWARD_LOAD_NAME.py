# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:226, differs on 3.11:
# differs: TryStar/Pass: JUMP_FORWARD -> LOAD_NAME
try:
    pass
except* 0:
    pass
unique_name_0
