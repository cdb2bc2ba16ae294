# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:207, differs on 3.11:
# differs: TryStar/For: JUMP_FORWARD -> LOAD_CONST
try:
    for unique_name_0 in 0:
        pass
except* 0:
    pass
else:
    pass
