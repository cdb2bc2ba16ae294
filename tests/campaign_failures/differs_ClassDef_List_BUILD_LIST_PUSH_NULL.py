# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:315, differs on 3.11:
# differs: ClassDef (List): BUILD_LIST -> PUSH_NULL
@[]
class name_0(**0):
    pass
