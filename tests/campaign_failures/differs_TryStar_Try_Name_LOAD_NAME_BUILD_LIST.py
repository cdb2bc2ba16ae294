# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:378, differs on 3.12:
# differs: TryStar/Try (Name): LOAD_NAME -> BUILD_LIST
try:
    unique_name_0
    try:
        pass
    except unique_name_1:
        pass
except* 0:
    pass
