# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:522, differs on 3.12:
# differs: Pass: SWAP -> POP_TOP
[0 for unique_name_0 in unique_name_1]
unique_name_2 or unique_name_3
pass
