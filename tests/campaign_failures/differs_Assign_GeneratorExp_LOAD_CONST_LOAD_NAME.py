# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:1196, differs on 3.11:
# differs: Assign (GeneratorExp): LOAD_CONST -> LOAD_NAME
[] = (0 for unique_name_0 in unique_name_1)
unique_name_2
