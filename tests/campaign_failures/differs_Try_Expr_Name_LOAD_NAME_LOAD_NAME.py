# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:227, differs on 3.12:
# differs: Try/Expr (Name): LOAD_NAME -> LOAD_NAME
try:
    try:
        pass
    except* unique_name_0:
        pass
    unique_name_1
except:
    pass
