# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:38, differs on 3.11:
# differs: Match/Pass: JUMP_FORWARD -> LOAD_CONST
match 0:
    case 0:
        pass
    case 0:
        pass
pass
