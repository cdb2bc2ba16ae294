# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:265, differs on 3.11:
# differs: annotations: SETUP_ANNOTATIONS -> BUILD_LIST
[]
(unique_name_0): 0
