# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:468, differs on 3.13:
# differs: If/AsyncFunctionDef: JUMP_FORWARD -> RETURN_CONST
if unique_name_0:

    async def name_5():
        pass
else:
    pass
pass
pass
pass
