# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:252, differs on 3.11:
# differs: Try/TryStar: COPY -> LOAD_NAME
try:
    unique_name_0
except unique_name_1:
    pass
else:
    try:
        pass
    except* 0:
        pass
