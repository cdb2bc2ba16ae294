# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:13, differs on 3.11:
# differs: co_names
raise
unique_name_0
