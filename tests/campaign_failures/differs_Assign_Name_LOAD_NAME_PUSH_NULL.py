# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:548, differs on 3.11:
# differs: Assign (Name): LOAD_NAME -> PUSH_NULL
[] = unique_name_0
0()
