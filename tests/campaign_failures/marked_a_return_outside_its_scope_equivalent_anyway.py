# Shrunk by python -m unpyc.campaign --seed 4343 from pysource-codegen:4343:240, marked on 3.13
# (main: `# unpyc: the code leaves the module or class body here` twice and "a value
# missing from the stack" in the try, exit 9, equivalent anyway; fixed by
# normalize/withexits.c, stop 43):
# marked: a `return` outside its scope (equivalent anyway)
try:
    with 0:
        pass
except* 0:
    pass
finally:
    pass
