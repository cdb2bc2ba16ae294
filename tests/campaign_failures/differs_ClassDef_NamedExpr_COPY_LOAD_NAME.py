# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:430, differs on 3.11:
# differs: ClassDef (NamedExpr): COPY -> LOAD_NAME
@(unique_name_0 := 0)
@unique_name_1
class name_5:
    pass
