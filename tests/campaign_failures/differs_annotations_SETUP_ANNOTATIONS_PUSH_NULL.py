# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:144, differs on 3.11:
# differs: annotations: SETUP_ANNOTATIONS -> PUSH_NULL
0()
(unique_name_0): 0
