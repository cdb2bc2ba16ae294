# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:232, differs on 3.11:
# differs: AsyncFunctionDef (Name): LOAD_GLOBAL -> LOAD_NAME
global name_0

async def name_1(*, name_2: name_0):
    pass
