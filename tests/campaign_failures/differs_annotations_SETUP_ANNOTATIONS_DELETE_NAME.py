# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:274, differs on 3.11:
# differs: annotations: SETUP_ANNOTATIONS -> DELETE_NAME
del unique_name_0
(unique_name_1): 0
