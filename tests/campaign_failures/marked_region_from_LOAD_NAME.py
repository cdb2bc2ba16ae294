# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:192, marked on 3.12:
# marked: region from LOAD_NAME
while {0 for unique_name_0 in unique_name_1}:
    pass
else:
    unique_name_3
