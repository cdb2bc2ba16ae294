# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:132, differs on 3.11:
# differs: For (List): UNPACK_SEQUENCE -> STORE_NAME
for [] in 0:
    pass
