# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:953, differs on 3.11:
# differs: ClassDef (Name): LOAD_GLOBAL -> LOAD_NAME
global name_4

class name_1(name_4):
    pass
