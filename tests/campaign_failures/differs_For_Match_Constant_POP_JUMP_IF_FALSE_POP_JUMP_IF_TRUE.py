# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:285, differs on 3.12:
# differs: For/Match (Constant): POP_JUMP_IF_FALSE -> POP_JUMP_IF_TRUE
for unique_name_0 in 0:
    match 0:
        case 0:
            pass
    pass
