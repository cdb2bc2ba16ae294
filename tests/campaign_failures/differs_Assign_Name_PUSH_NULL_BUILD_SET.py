# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:997, differs on 3.11:
# differs: Assign (Name): PUSH_NULL -> BUILD_SET
() = unique_name_0()
{*0}
