# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:57, differs on 3.11:
# differs: FunctionDef (Name): LOAD_GLOBAL -> LOAD_NAME
global name_3

@name_3
def name_1():
    pass
