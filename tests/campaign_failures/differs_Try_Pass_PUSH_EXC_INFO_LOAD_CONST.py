# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:501, differs on 3.11:
# differs: Try/Pass: PUSH_EXC_INFO -> LOAD_CONST
for unique_name_0 in 0:
    try:
        pass
    except:
        pass
