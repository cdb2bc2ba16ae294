# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:126, differs on 3.11:
# differs: Pass: end -> POP_TOP
unique_name_0 and unique_name_1
pass
