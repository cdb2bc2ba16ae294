# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:59, differs on 3.11:
# differs: Assign (Tuple): LOAD_CONST -> LOAD_NAME
() = ()
unique_name_0
