# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:245, differs on 3.11:
# differs: Assign: COPY -> STORE_NAME
() = unique_name_0 = 0
