# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:226, differs on 3.12:
# differs: TryStar/TryStar: STORE_NAME -> STORE_NAME
try:
    unique_name_0
    try:
        pass
    except* name_1 as name_2:
        pass
except* name_1 as name_5:
    pass
