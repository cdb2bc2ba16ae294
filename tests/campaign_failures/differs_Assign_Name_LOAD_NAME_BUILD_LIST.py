# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:764, differs on 3.11:
# differs: Assign (Name): LOAD_NAME -> BUILD_LIST
() = unique_name_0
[]
