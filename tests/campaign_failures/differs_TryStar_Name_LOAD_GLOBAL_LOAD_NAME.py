# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:468, differs on 3.11:
# differs: TryStar (Name): LOAD_GLOBAL -> LOAD_NAME
global name_1
try:
    import name_3
except* name_1:
    pass
