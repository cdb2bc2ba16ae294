# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:300, differs on 3.11:
# differs: TryStar/TryStar: POP_TOP -> STORE_NAME
try:
    try:
        pass
    except* name_4:
        pass
except* name_4 as name_2:
    pass
finally:
    pass
