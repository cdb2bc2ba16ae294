# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:1118, differs on 3.11:
# differs: AugAssign (Name): LOAD_NAME -> LOAD_NAME
while 0:
    unique_name_0
unique_name_1 /= 0
