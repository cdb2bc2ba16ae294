# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:1086, differs on 3.11:
# differs: While/Expr (Name): LOAD_GLOBAL -> LOAD_NAME
global name_2
while {0}:
    name_2
