# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:902, differs on 3.11:
# differs: Try/While (Name): LOAD_GLOBAL -> LOAD_NAME
global name_5
try:
    while name_5:
        pass
except:
    pass
