# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:20, differs on 3.12:
# differs: Pass: PUSH_EXC_INFO -> POP_TOP
unique_name_0 or unique_name_1
try:
    pass
except* 0:
    pass
pass
