# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:583, differs on 3.13:
# differs: If/Match (Name): LOAD_NAME -> LOAD_NAME
if 0:
    import name_3 as name_4
else:
    match 0:
        case 0 if unique_name_0:
            pass
