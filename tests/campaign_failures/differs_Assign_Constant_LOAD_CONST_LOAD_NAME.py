# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:1801, differs on 3.11:
# differs: Assign (Constant): LOAD_CONST -> LOAD_NAME
() = 0
unique_name_0
