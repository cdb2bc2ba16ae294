# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:844, differs on 3.11:
# differs: TryStar (Name): LOAD_NAME -> LOAD_NAME
try:
    raise
    unique_name_1
except* unique_name_2:
    pass
