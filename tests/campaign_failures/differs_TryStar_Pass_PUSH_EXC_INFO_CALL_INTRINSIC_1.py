# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:374, differs on 3.12:
# differs: TryStar/Pass: PUSH_EXC_INFO -> CALL_INTRINSIC_1
async def name_3():
    try:
        pass
    except* 0:
        pass
