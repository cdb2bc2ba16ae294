# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:2, differs on 3.12:
# differs: Try/TryStar: BUILD_LIST -> LOAD_NAME
try:

    async def name_4():
        pass
    try:
        pass
    except* 0:
        pass
except unique_name_0:
    pass
