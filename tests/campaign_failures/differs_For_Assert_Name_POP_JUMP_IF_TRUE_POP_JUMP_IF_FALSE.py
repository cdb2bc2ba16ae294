# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:3698, differs on 3.12:
# differs: For/Assert (Name): POP_JUMP_IF_TRUE -> POP_JUMP_IF_FALSE
for unique_name_0 in 0:
    assert unique_name_1
    pass
