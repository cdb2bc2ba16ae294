# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:945, differs on 3.12:
# differs: Assert (Name): LOAD_GLOBAL -> LOAD_NAME
assert 0, {name_5 for unique_name_0 in unique_name_1}
global name_5
