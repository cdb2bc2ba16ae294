# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:34, differs on 3.13:
# differs: ClassDef: LOAD_BUILD_CLASS -> PUSH_NULL
@0
class name_5(**0):
    pass
