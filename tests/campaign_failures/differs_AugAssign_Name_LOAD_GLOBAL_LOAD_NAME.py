# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:799, differs on 3.11:
# differs: AugAssign (Name): LOAD_GLOBAL -> LOAD_NAME
global name_1
unique_name_0 &= name_1
