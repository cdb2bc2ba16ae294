# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:68, differs on 3.11:
# differs: Assign (Name): LOAD_NAME -> RAISE_VARARGS
() = unique_name_0
raise
