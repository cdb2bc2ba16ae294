# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:485, differs on 3.12:
# differs: Try/Try: POP_TOP -> RERAISE
try:
    try:
        pass
    except:
        pass
except:
    pass
else:
    unique_name_0
finally:
    pass
