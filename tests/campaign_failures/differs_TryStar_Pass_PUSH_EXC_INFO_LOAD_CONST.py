# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:928, differs on 3.11:
# differs: TryStar/Pass: PUSH_EXC_INFO -> LOAD_CONST
for unique_name_0 in 0:
    try:
        pass
    except* 0:
        pass
