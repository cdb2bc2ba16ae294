# Shrunk by python -m unpyc.campaign --seed 1 from pysource-codegen:1:455, differs on 3.13:
# differs: ClassDef (NamedExpr): COPY -> LOAD_BUILD_CLASS
@(unique_name_0 := 0)
class name_0:
    pass
