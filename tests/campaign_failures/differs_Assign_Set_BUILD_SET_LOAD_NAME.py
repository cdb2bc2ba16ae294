# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:284, differs on 3.11:
# differs: Assign (Set): BUILD_SET -> LOAD_NAME
[] = {*0}
unique_name_0
