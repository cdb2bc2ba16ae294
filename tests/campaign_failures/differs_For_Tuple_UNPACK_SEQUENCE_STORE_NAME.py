# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:10, differs on 3.11:
# differs: For (Tuple): UNPACK_SEQUENCE -> STORE_NAME
for () in 0:
    pass
