# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:85, differs on 3.12:
# differs: TryStar/Try: POP_TOP -> BUILD_LIST
try:
    unique_name_0
    try:
        pass
    except:
        pass
except* 0:
    pass
