# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:2743, marked on 3.12:
# marked: expression from LOAD_NAME
while b'\xff':
    try:
        pass
    except 0:
        pass
    unique_name_0
