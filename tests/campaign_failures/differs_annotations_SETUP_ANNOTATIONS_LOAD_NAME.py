# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:26, differs on 3.11:
# differs: annotations: SETUP_ANNOTATIONS -> LOAD_NAME
(unique_name_0): unique_name_1
