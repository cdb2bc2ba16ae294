# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:382, differs on 3.11:
# differs: Assign (Name): PUSH_NULL -> LOAD_NAME
() = unique_name_0()
unique_name_1
