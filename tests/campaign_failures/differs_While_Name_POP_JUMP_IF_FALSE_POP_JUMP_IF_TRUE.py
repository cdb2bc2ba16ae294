# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:91, differs on 3.12:
# differs: While (Name): POP_JUMP_IF_FALSE -> POP_JUMP_IF_TRUE
while unique_name_1 if unique_name_0 else unique_name_2:
    pass
