# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:300, differs on 3.12:
# differs: Pass: PUSH_EXC_INFO -> end
try:
    pass
except* 0:
    pass
pass
