# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:291, differs on 3.11:
# differs: ClassDef (Tuple): LOAD_CONST -> PUSH_NULL
@()
class name_0(**0):
    pass
