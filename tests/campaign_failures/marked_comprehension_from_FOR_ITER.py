# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:24, marked on 3.12:
# marked: comprehension from FOR_ITER
class name_5(*0, {0: 0 for unique_name_0 in unique_name_1}):
    pass
