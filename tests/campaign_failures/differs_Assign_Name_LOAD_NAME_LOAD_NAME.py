# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:810, differs on 3.11:
# differs: Assign (Name): LOAD_NAME -> LOAD_NAME
[] = unique_name_0
unique_name_1
