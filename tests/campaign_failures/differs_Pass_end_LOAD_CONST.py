# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:7, differs on 3.11:
# differs: Pass: end -> LOAD_CONST
while unique_name_0:
    pass
pass
