# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:121, differs on 3.11:
# differs: Expr (Name): LOAD_NAME -> LOAD_NAME
while 0:
    unique_name_0
unique_name_1
