# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:233, differs on 3.11:
# differs: Match (Name): LOAD_GLOBAL -> LOAD_NAME
global name_2
match 0:
    case 0 if name_2:
        pass
