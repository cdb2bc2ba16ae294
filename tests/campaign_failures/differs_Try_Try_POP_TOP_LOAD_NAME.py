# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:877, differs on 3.11:
# differs: Try/Try: POP_TOP -> LOAD_NAME
try:
    try:
        pass
    except:
        pass
except unique_name_0:
    pass
finally:
    pass
