# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:785, differs on 3.12:
# differs: TryStar/TryStar (Name): LOAD_NAME -> LOAD_NAME
import name_2 as name_5
try:
    try:
        pass
    except* name_2:
        pass
    unique_name_0
except* unique_name_1:
    pass
