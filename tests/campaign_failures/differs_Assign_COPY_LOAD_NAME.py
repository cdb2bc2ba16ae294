# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:366, differs on 3.11:
# differs: Assign: COPY -> LOAD_NAME
[] = unique_name_0[0] = 0
