# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:105, marked on 3.12:
# marked: region from LOAD_CONST
while lambda: 0:
    with 0:
        pass
else:
    pass
