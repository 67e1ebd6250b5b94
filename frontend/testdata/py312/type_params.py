# PEP 695: type parameters and type aliases.
type Point = tuple[float, float]
type ListOrSet[T] = list[T] | set[T]
type Nested[T: (int, str), *Ts, **P] = Callable[P, tuple[T, *Ts]]


def first[T](xs: list[T]) -> T:
    return xs[0]


def bounded[T: int, U: (str, bytes)](a: T, b: U) -> None:
    pass


def variadic[*Ts, **P](*args: *Ts, **kwargs: P.kwargs) -> None:
    pass


async def coro[T,](x: T) -> T:
    return x


class Box[T]:
    def get(self) -> T:
        ...


class Mapping[K, V](Base[K], metaclass=Meta):
    pass


@decorator
class Decorated[T: Hashable]:
    pass


type = 1
type.x = 2
print(type)
