# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:838, differs on 3.13:
# differs: ClassDef/Pass: STORE_NAME -> STORE_NAME
class name_3:
    try:
        pass
    except* 0 as name_1:
        pass
    pass
