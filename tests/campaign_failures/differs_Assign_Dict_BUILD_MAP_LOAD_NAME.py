# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:831, differs on 3.11:
# differs: Assign (Dict): BUILD_MAP -> LOAD_NAME
() = {}
unique_name_0
