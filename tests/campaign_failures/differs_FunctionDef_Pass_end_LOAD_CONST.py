# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:562, differs on 3.11:
# differs: FunctionDef/Pass: end -> LOAD_CONST
def name_4():
    if unique_name_0:
        pass
    pass
