# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:1599, marked on 3.12:
# marked: block, which no statement above holds from POP_EXCEPT
with 0:
    pass
raise
from ..name_1 import name_2
