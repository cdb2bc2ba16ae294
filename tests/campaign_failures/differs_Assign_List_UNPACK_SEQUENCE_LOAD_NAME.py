# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:327, differs on 3.11:
# differs: Assign (List): UNPACK_SEQUENCE -> LOAD_NAME
[] = unique_name_0[0] = unique_name_1 = 0
