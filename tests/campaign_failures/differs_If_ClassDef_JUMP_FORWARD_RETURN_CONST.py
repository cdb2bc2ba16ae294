# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:38, differs on 3.13:
# differs: If/ClassDef: JUMP_FORWARD -> RETURN_CONST
if {}:

    class name_1:
        pass
else:
    unique_name_0
pass
pass
pass
