from . import consts

NAME = "pkgc"
DOUBLE = consts.BLOCK * 2 if hasattr(consts, "BLOCK") else None
