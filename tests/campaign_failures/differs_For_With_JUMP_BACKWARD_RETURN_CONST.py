# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:678, differs on 3.12:
# differs: For/With: JUMP_BACKWARD -> RETURN_CONST
for unique_name_0 in 0:
    pass
else:
    with 0:
        pass
    pass
