# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:687, differs on 3.11:
# differs: Try/Try (Name): LOAD_NAME -> LOAD_NAME
try:
    unique_name_0
except unique_name_1:
    pass
else:
    try:
        pass
    except unique_name_2:
        pass
