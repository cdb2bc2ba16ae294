# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:269, differs on 3.11:
# differs: Delete (Name): LOAD_GLOBAL -> LOAD_NAME
global name_3
del 0[name_3]
