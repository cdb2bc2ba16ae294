# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:2131, differs on 3.11:
# differs: If/AnnAssign (Name): LOAD_NAME -> LOAD_NAME
if 0:
    unique_name_0
else:
    unique_name_1: unique_name_2
