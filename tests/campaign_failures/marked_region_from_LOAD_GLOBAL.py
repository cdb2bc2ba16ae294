# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:4841, marked on 3.12:
# marked: region from LOAD_GLOBAL
global name_0
while name_0:
    with 0:
        pass
