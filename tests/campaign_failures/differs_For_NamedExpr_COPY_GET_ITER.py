# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:90, differs on 3.11:
# differs: For (NamedExpr): COPY -> GET_ITER
for [] in (unique_name_0 := 0):
    pass
