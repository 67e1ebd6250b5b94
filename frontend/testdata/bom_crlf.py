x = "bom"
if x:
    y = """a
b"""
