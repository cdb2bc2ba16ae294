# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:84, differs on 3.11:
# differs: While/Continue: JUMP_BACKWARD -> LOAD_NAME
while unique_name_1 and unique_name_2:
    continue
else:
    unique_name_3
