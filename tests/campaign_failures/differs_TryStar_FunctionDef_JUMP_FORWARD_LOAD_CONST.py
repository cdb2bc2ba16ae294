# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:801, differs on 3.11:
# differs: TryStar/FunctionDef: JUMP_FORWARD -> LOAD_CONST
try:

    def name_1():
        pass
except* 0:
    pass
else:
    pass
