# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:374, differs on 3.11:
# differs: TryStar/Pass: PUSH_EXC_INFO -> end
try:
    pass
except* 0:
    pass
