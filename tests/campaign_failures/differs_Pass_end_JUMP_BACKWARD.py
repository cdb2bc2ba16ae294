# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:91, differs on 3.11:
# differs: Pass: end -> JUMP_BACKWARD
while unique_name_1 if unique_name_0 else unique_name_2:
    pass
pass
