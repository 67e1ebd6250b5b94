# Corner cases of the grammar.
x = *a, *b
def r():
    return *a, b
for x in *a, b:
    pass
a[b := 1]
{a: (b := 1)}
not not x
lambda: a if b else c
a if b else lambda: c
x = [*range(3)]
x = {**{}}
f(**{'a': 1})
f(a)[b](c)
x = a.b.c(d)(e)[f:g, h]
x = yield_ if cond else None
@property
def p(self): ...
class A(B, C): x: int; y = 2
if a:
    if b:
        if c:
            pass
        else:
            pass
elif d:
    pass
try:
    pass
except A or B:
    pass
x = (  # comment
    1
)
x = [i for i in range(3) if i if i > 0]
x = (i async for i in y)
x = 1 if 2 else 3 if 4 else 5
a = b = c = d
a[1:2][3]
x = a @ b @ c
x = a // b // c
x ** y ** z
x = -x ** -y
x = ~x + -y * +z
x = a < b < c
x = a == b is c in d
x = (a, b) == (c, d)
x = [a,
     b][0]
x = f(
    a,
    b=2,
    *c,
    **d,
)
del a[0], b.c
del (a)
del [a, b]
del a,
global x
x: "Annot" = 1
(x): int
x.y: int
import a.b.c
import a.b as c
from .a.b import c
from . a import b
x = 0.5; y = .5; z = 5.
x = ''' ' " '''
x = """ " ' """
x = '\''
x = "\""
x = '\\'
x = b'\''
x = b'"'
x = '''a\
b'''
x = 'a' \
    'b'
print(a, b, sep='', end='\n', file=f)
assert isinstance(x, (int, float)), f"bad {x!r}"
x = [1, 2, 3][::-1]
x = a[-1:]
x = a[:-1, ...]
x = a[b][c:d, e]
x = lambda *args, **kwargs: (args, kwargs)
x = lambda a=1, b=(1, 2), *c: None
def f(a, b, /): pass
def f(a, /, *, b): pass
def f(*, a, b=1, c): pass
def f(**kw,): pass
def f(*a,): pass
def f(a,): pass
class C(): pass
class D(object,): pass
while 1: pass
with a as b.c, d as e[0]: pass
with a as [b, c]: pass
x = a if b else(c)
x = not(a)
x = (not a) == b
x = {1: 2, **a, 3: 4}
x = {'a', 'b',}
x = f'{x:{y}}' f'{z}'
x = [(yield)]
x = 1_000.000_1e1_0j
x = 0xdead_beef
if x:
    pass
    # trailing comment in block

    # another after blank
y = 1
