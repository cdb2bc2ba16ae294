# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:957, differs on 3.12:
# differs: Try/Try (Name): LOAD_NAME -> POP_TOP
try:
    unique_name_0
except:
    pass
else:
    try:
        pass
    except unique_name_1:
        pass
