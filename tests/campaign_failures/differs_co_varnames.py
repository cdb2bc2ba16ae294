# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:567, differs on 3.12:
# differs: co_varnames
name_1
raise
{0: 0 for unique_name_0 in name_1}
