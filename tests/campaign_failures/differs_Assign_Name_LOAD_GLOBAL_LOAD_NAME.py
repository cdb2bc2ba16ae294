# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:6, differs on 3.11:
# differs: Assign (Name): LOAD_GLOBAL -> LOAD_NAME
global name_0
name_0[0] = 0
