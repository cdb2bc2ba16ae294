# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:247, differs on 3.11:
# differs: Try/For: JUMP_FORWARD -> LOAD_CONST
try:
    unique_name_0
except:
    pass
finally:
    for unique_name_1 in 0:
        pass
pass
