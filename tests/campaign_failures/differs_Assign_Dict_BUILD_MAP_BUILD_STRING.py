# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:829, differs on 3.11:
# differs: Assign (Dict): BUILD_MAP -> BUILD_STRING
() = {}
f''
