# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:263, differs on 3.11:
# differs: For/Expr (Name): LOAD_NAME -> LOAD_NAME
for unique_name_0 in 0:
    continue
    unique_name_1
else:
    unique_name_2
