# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:295, differs on 3.11:
# differs: Assign (List): UNPACK_SEQUENCE -> STORE_NAME
[] = unique_name_0 = unique_name_1 = 0
