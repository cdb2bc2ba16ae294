# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:618, differs on 3.13:
# differs: TryStar/TryStar: BUILD_LIST -> RERAISE
try:
    unique_name_0
except* 0:
    pass
else:
    try:
        pass
    except* 0:
        pass
finally:
    pass
