# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:261, differs on 3.13:
# differs: Try: POP_TOP -> RERAISE
try:
    unique_name_0
    try:
        pass
    except:
        pass
except:
    pass
finally:
    pass
