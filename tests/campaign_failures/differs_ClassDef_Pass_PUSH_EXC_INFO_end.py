# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:838, differs on 3.12:
# differs: ClassDef/Pass: PUSH_EXC_INFO -> end
class name_3:
    try:
        pass
    except* 0:
        pass
    pass
