# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:563, differs on 3.11:
# differs: Assign (SetComp): LOAD_CONST -> LOAD_NAME
[] = {0 for unique_name_0 in unique_name_1}
unique_name_2
