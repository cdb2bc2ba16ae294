# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:545, differs on 3.12:
# differs: Expr: PUSH_EXC_INFO -> end
[0 for unique_name_0 in unique_name_1]
try:
    pass
except:
    pass
