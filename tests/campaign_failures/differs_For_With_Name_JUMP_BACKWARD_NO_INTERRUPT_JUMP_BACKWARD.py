# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:421, differs on 3.13:
# differs: For/With (Name): JUMP_BACKWARD_NO_INTERRUPT -> JUMP_BACKWARD
for unique_name_0 in 0:
    with unique_name_1:
        pass
    pass
