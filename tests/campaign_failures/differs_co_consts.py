# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:69, differs on 3.13:
# differs: co_consts
f''
