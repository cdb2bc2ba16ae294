# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:1169, differs on 3.11:
# differs: Assign (Set): BUILD_SET -> LOAD_CONST
[] = {*0}
