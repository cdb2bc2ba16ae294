# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:120, differs on 3.11:
# differs: Assign (Name): LOAD_NAME -> LOAD_CONST
[] = unique_name_0
