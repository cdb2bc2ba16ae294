# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:523, differs on 3.11:
# differs: While/FunctionDef (Name): LOAD_NAME -> LOAD_NAME
while 0:
    unique_name_0
else:

    def name_3(*name_1: unique_name_1):
        pass
