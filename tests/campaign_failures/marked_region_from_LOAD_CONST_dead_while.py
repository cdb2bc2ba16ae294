# Shrunk by python -m unpyc.campaign --seed 4444 from pysource-codegen:4444:192, marked on 3.8 / 3.9
# (main: a while loop holding a with, after a raise, code no path reaches, marked "could not
# recover this region", exit 9; fixed by recover/cfg.c giving dead code dominators of its own, stop 44):
# marked: region from LOAD_CONST
raise 0
while [0 for unique_name_0 in unique_name_1]:
    with 0:
        pass
