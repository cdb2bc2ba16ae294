# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:701, differs on 3.11:
# differs: With (Name): LOAD_GLOBAL -> LOAD_NAME
global name_3
with name_3:
    pass
