# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:781, marked on 3.13:
# marked: block, which no statement above holds from LOAD_CONST (equivalent anyway)
class name_5:
    while unique_name_0:
        pass
