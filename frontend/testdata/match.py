# match statements and every kind of pattern.
match command:
    case "quit":
        pass
    case 1 | 2 | 3:
        pass
    case -1:
        pass
    case 1.5 | -2.5:
        pass
    case 1 + 2j | -1 - 2j:
        pass
    case b"bytes":
        pass
    case "con" "cat":
        pass
    case None:
        pass
    case True | False:
        pass
    case x:
        pass
    case _:
        pass

match point:
    case (0, 0):
        pass
    case (x, 0) if x > 0:
        pass
    case [x, y, *rest]:
        pass
    case [*_]:
        pass
    case (*head, last):
        pass
    case []:
        pass
    case ():
        pass
    case a, b:
        pass
    case a, *b, c,:
        pass
    case (x):
        pass
    case [1, [2, (3, 4)]]:
        pass

match obj:
    case Point(x=0, y=0):
        pass
    case Point(0, y=1):
        pass
    case Point():
        pass
    case mod.Class(a, b, c=d):
        pass
    case Color.RED:
        pass
    case a.b.c:
        pass
    case {"key": value, 1: other, **rest}:
        pass
    case {}:
        pass
    case {None: x, True: y, -1: z, Color.RED: w}:
        pass
    case [1, 2] as pair:
        pass
    case (1 | 2) as n:
        pass
    case str() | bytes() as s if s:
        pass
    case {"a": [1, *_], "b": Point(x=1) | None}:
        pass

match a, b:
    case 1, 2:
        pass

match *a, b:
    case _:
        pass

match (x):
    case _: pass

match = 1
match.attr = 2
match[0] = 3
match(x)
case = 1
_ = match
type = 5
type(x)
print(match, case, type)
