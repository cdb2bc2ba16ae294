# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:80, differs on 3.11:
# differs: Expr (Name): LOAD_GLOBAL -> LOAD_NAME
global name_0
name_0
