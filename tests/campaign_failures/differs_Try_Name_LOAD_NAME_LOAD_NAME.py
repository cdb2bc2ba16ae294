# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:1851, differs on 3.12:
# differs: Try (Name): LOAD_NAME -> LOAD_NAME
try:
    raise
except unique_name_0:
    pass
else:
    unique_name_1
