# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:803, differs on 3.12:
# differs: Try/Assign (Name): STORE_NAME -> STORE_NAME
try:
    pass
except:
    pass
else:
    try:
        pass
    except* unique_name_1:
        pass
finally:
    unique_name_2 = 0
