"""Every kind of statement (Python 3.11-compatible syntax)."""
import os
import os.path as osp, sys
from . import sibling
from .. import parent as par
from ...pkg.mod import (a, b as bb,
                        c,)
from __future__ import annotations
from x import *

x = 1
x = y = z = 2
a, b = b, a
(a, b), [c, *d] = e = f()
x.attr = obj[0] = obj[1:2] = 3
[a] = (b,) = c, = ()
x += 1; x -= 1; x *= 2; x @= m; x /= 3; x //= 4; x %= 5; x **= 2
x <<= 1; x >>= 1; x &= 3; x |= 4; x ^= 5
count: int
total: float = 0.0
(paren): int = 1
self.field: list[int] = []
obj[key]: str
v: tuple[int, ...] = 1, 2
del x
del x, y[0], z.w
del (a, b), [c]
pass
assert x
assert x > 0, "x must be positive"
global g1, g2
print("hello", end="")


def simple():
    return


def returns(a, b):
    return a, b


def gen():
    yield
    yield 1
    yield 1, 2
    x = yield
    y = yield from gen()
    return (yield)


def params(a, b=1, *args, c, d=2, **kwargs) -> None:
    nonlocal_ = 1


def posonly(a, b, /, c, *, d):
    pass


def posonly_defaults(a=1, /, b=2, *, c, d=4, **kw):
    pass


def star_only(*, key=None):
    pass


def annotated(a: int, *args: str, b: "fwd" = None, **kw: dict) -> "ret":
    ...


def outer():
    v = 1

    def inner():
        nonlocal v
        v += 1
        return v

    return inner


@decorator
@module.decorator(arg, key=1)
@(lambda f: f)
@a[0].b
def decorated():
    pass


class Empty:
    pass


class Derived(Base, metaclass=Meta, **extra):
    """Doc."""
    attr = 1

    def method(self):
        return self.attr

    @property
    def prop(self):
        return 1

    class Nested(object):
        pass


@dataclass
class Point:
    x: int
    y: int = 0


if x:
    pass
elif y:
    pass
elif z:
    a = 1
else:
    b = 2

if x: a = 1
else: b = 2

while x:
    x -= 1
    if x == 3:
        break
    continue
else:
    done = True

for i in range(10):
    print(i)
else:
    pass

for i, (j, k) in enumerate(pairs):
    pass

for [a, *rest] in seqs: pass
for x, in y: pass
for obj.attr in y: pass
for d[k] in y: pass

try:
    risky()
except ValueError:
    pass
except (TypeError, KeyError) as e:
    raise RuntimeError("bad") from e
except:
    raise
else:
    ok()
finally:
    cleanup()

try:
    pass
finally:
    pass

try:
    pass
except* ValueError as eg:
    pass
except* (TypeError, OSError):
    pass

with open(p) as f:
    pass

with a, b as c, d() as (e, f):
    pass

with (a as b, c as d):
    pass

with (a, b):
    pass

with (a, b) as c:
    pass

with (
    open(p) as f,
    open(q) as g,
):
    pass

with (yield):
    pass

raise
raise E
raise E("msg")


async def coroutine():
    await x
    async for i in aiter():
        pass
    else:
        pass
    async with lock as l, other:
        pass
    result = [i async for i in aiter() if await i]
    return await y


x = 1; y = 2;
if True: x = 1; y = 2
class Inline: pass
def inline(): return 1
while False: break
