# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:819, differs on 3.12:
# differs: Assert (Name): LOAD_NAME -> RETURN_CONST
assert unique_name_1 if unique_name_0 else unique_name_2
