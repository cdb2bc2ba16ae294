# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:51, differs on 3.11:
# differs: Try (Name): LOAD_GLOBAL -> LOAD_NAME
global name_4
try:
    unique_name_0
except name_4:
    pass
