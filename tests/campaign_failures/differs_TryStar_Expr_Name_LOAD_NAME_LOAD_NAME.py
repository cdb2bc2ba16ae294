# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:464, differs on 3.12:
# differs: TryStar/Expr (Name): LOAD_NAME -> LOAD_NAME
try:
    try:
        pass
    except 0 as name_3:
        pass
    unique_name_0
except* 0:
    pass
