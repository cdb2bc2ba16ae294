# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:485, differs on 3.11:
# differs: If/Expr (Name): LOAD_GLOBAL -> LOAD_NAME
global name_2
if f'':
    name_2
