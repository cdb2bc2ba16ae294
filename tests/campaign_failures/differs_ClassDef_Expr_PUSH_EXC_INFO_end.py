# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:772, differs on 3.12:
# differs: ClassDef/Expr: PUSH_EXC_INFO -> end
class name_4:
    try:
        pass
    except:
        pass
    unique_name_0
