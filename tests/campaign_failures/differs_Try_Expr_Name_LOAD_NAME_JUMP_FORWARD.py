# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:888, differs on 3.11:
# differs: Try/Expr (Name): LOAD_NAME -> JUMP_FORWARD
try:
    unique_name_0
except:
    pass
else:
    name_0
finally:
    name_0
