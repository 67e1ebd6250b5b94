import pkgc

BLOCK = 64
