# Shrunk by python -m unpyc.campaign --seed 4343 from pysource-codegen:4343:218, marked on 3.8 / 3.9
# (main: the with after the continue, code no path reaches, marked "could not recover
# this region", exit 9; fixed by normalize/blocks.c walking a dead with as a dead try, stop 43):
# marked: region from LOAD_NAME
while {}:
    continue
    with unique_name_0:
        pass
    unique_name_1
