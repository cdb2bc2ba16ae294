# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:83, differs on 3.11:
# differs: If (Name): LOAD_GLOBAL -> LOAD_NAME
global name_5
if name_5:
    pass
