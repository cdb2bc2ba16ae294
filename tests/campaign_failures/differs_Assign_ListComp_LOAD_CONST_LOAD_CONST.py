# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:995, differs on 3.11:
# differs: Assign (ListComp): LOAD_CONST -> LOAD_CONST
() = [0 for unique_name_0 in unique_name_1]
