# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:136, differs on 3.13:
# differs: exception table
try:
    with 0:
        pass
    pass
except* 0:
    pass
finally:
    pass
