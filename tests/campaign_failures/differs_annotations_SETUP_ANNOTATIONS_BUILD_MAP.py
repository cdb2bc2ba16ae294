# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:182, differs on 3.11:
# differs: annotations: SETUP_ANNOTATIONS -> BUILD_MAP
{}
(unique_name_0): 0
