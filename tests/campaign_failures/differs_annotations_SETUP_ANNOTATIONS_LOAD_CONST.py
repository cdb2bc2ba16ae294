# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:63, differs on 3.11:
# differs: annotations: SETUP_ANNOTATIONS -> LOAD_CONST
(unique_name_0): 0
