# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:600, differs on 3.11:
# differs: annotations: SETUP_ANNOTATIONS -> RAISE_VARARGS
raise
unique_name_0: 0
