# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:37, marked on 3.12:
# marked: region from RETURN_CONST
while {0 for unique_name_0 in unique_name_1}:
    pass
