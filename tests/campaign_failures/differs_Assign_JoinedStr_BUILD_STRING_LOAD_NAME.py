# Shrunk by python -m unpyc.campaign --seed 2 from pysource-codegen:2:603, differs on 3.11:
# differs: Assign (JoinedStr): BUILD_STRING -> LOAD_NAME
() = f''
unique_name_0
