# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:3, differs on 3.11:
# differs: ClassDef: LOAD_BUILD_CLASS -> LOAD_CONST
class name_1(**0):
    pass
