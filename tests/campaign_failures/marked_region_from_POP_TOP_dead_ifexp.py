# Shrunk by python -m unpyc.campaign --seed 4343 from pysource-codegen:4343:17, marked on 3.8 / 3.9
# (main: the conditional expression after the raise, code no path reaches, marked
# "could not recover this region", exit 9; fixed by recover/cfg.c seed_dead_depths, stop 43):
# marked: region from POP_TOP
raise
unique_name_0 and unique_name_1
0 if 0 else 0
