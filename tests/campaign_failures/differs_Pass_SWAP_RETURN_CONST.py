# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:408, differs on 3.13:
# differs: Pass: SWAP -> RETURN_CONST
if {0 for unique_name_0 in unique_name_1}:
    pass
pass
