# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:1218, marked on 3.12:
# marked: block, which no statement above holds from POP_EXCEPT (equivalent anyway)
with 0:
    pass
raise 0
