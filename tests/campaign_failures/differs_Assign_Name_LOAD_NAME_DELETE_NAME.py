# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:347, differs on 3.11:
# differs: Assign (Name): LOAD_NAME -> DELETE_NAME
[] = unique_name_0
del unique_name_1
