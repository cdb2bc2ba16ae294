# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:34, differs on 3.11:
# differs: ClassDef (Name): LOAD_NAME -> PUSH_NULL
@unique_name_0
class name_5(**0):
    pass
