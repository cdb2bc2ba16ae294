# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:158, differs on 3.13:
# differs: Assert (Name): LOAD_NAME -> JUMP_FORWARD
assert unique_name_1 if unique_name_0 else unique_name_2
(unique_name_3 := 0)
