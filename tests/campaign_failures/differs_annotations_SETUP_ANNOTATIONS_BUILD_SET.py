# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:450, differs on 3.11:
# differs: annotations: SETUP_ANNOTATIONS -> BUILD_SET
{*0}
(unique_name_0): 0
