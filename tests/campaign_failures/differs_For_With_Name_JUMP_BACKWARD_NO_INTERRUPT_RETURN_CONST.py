# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:678, differs on 3.13:
# differs: For/With (Name): JUMP_BACKWARD_NO_INTERRUPT -> RETURN_CONST
for unique_name_0 in 0:
    pass
else:
    with unique_name_1:
        pass
    pass
    pass
    pass
