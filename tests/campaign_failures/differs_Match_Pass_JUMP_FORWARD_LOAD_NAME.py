# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:3629, differs on 3.13:
# differs: Match/Pass: JUMP_FORWARD -> LOAD_NAME
match 0:
    case 0:
        pass
    case 0:
        pass
unique_name_0
pass
