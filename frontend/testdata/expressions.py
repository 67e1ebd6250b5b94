# Expressions of every kind, with operator precedence.
a + b - c * d / e // f % g @ h ** i
-a + +b - ~c
not a
a ** -b
-a ** b
a ** b ** c
(a + b) * c
a << b >> c & d ^ e | f
a and b or c and not d
a or b or c
a and b and c
a < b <= c > d >= e == f != g
a in b not in c is d is not e
a if b else c
a if b else c if d else e
lambda: 0
lambda x: x
lambda x, y=1, *args, z, w=2, **kw: x
lambda *, k: k
lambda a, /, b: a
lambda *a: a
lambda **k: k
(x := 10)
[y := 1, y ** 2]
f(x := 1)
if (n := len(a)) > 10:
    pass
while chunk := read():
    pass
f()
f(a)
f(a, b)
f(a, b,)
f(*args)
f(**kwargs)
f(a, *args, b=1, **kwargs)
f(a=1, *args)
f(*a, *b, **c, **d)
f(x for x in y)
f((x for x in y), 1)
f(a)(b)(c)
a.b.c.d
a[0]
a[0][1]
a[1:2]
a[1:]
a[:2]
a[:]
a[::]
a[::2]
a[1:2:3]
a[1, 2]
a[1:2, 3:4]
a[:, None]
a[None, :]
a[..., 0]
a[x, y,]
a[(1, 2)]
a[*idx]
a[1:2, *idx]
a.b[c].d(e)[f]
(a)
((a))
(a).b
(a)[0]
()
(1,)
(1, 2)
(1, 2,)
(*a, b)
[]
[1]
[1, 2, 3,]
[*a, *b]
{}
{1: 2}
{1: 2, 3: 4,}
{**a, 'b': 1, **c}
{1}
{1, 2}
{*a, *b}
[x for x in y]
[x for x in y if x if not x]
[x * y for x in a for y in b]
[(x, y) for x, y in pairs]
[x for [x, *_] in y]
{x for x in y}
{k: v for k, v in items}
{k: v for k in a if k for v in b}
(x for x in y)
[[x for x in row] for row in m]
[x for x in (lambda: y)()]
x = 1 if y else 2
x = [1, 2][0]
x = a if b else (lambda: c)
x = not a == b
x = -1
x = --1
x = a is not None
x = a not in b
x = f(a)[b].c
x = a.b(c).d[e:f]
x = (yield)
print(*a, sep='')
x = ...
x = True, False, None
y = x[...]
z = await_ = 1
await_x = f'{z}'
