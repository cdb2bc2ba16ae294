# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:775, differs on 3.12:
# differs: If/While (Name): JUMP_FORWARD -> RETURN_CONST
if unique_name_0:
    while unique_name_1:
        pass
else:
    pass
pass
pass
pass
pass
pass
