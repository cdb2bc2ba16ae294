# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:137, marked on 3.11:
# marked: region from JUMP_FORWARD
try:
    assert unique_name_0
except* 0:
    pass
finally:
    pass
pass
