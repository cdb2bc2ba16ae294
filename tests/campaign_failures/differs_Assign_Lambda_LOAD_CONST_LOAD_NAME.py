# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:158, differs on 3.13:
# differs: Assign (Lambda): LOAD_CONST -> LOAD_NAME
() = lambda: 0
unique_name_0
