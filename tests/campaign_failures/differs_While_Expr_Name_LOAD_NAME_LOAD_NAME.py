# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:577, differs on 3.11:
# differs: While/Expr (Name): LOAD_NAME -> LOAD_NAME
while 0:
    unique_name_0
else:
    unique_name_1
