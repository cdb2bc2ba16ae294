# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:82, differs on 3.11:
# differs: annotations: SETUP_ANNOTATIONS -> BUILD_STRING
f''
(unique_name_0): 0
