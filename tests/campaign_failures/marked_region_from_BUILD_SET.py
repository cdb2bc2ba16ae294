# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:596, marked on 3.12:
# marked: region from BUILD_SET
while {*0}:
    with 0:
        pass
pass
