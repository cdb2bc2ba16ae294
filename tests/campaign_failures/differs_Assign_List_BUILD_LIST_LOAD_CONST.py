# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:3682, differs on 3.11:
# differs: Assign (List): BUILD_LIST -> LOAD_CONST
[] = []
