# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:2600, differs on 3.11:
# differs: For (Name): LOAD_GLOBAL -> LOAD_NAME
global name_2
for unique_name_0 in name_2:
    pass
