from jax.experimental.hijax import VJPHiPrimitive


type Pair[T] = tuple[T, T]


class Gen[T](VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        match res:
            case (a, b):
                pass
        if (n := len(res)) > 1:
            print(f"{f'{n!r}'}")
        return (g, g)


async def main():
    try:
        pass
    except* ValueError:
        pass
# output
from jax.experimental.hijax import VJPHiPrimitive


type Pair[T] = tuple[T, T]


class Gen[T](VJPHiPrimitive):
    def vjp_bwd_retval(self, res, g):
        match res:
            case (a, b):
                pass
        if (n := len(res)) > 1:
            print(f"{f'{n!r}'}")
        return (g, g)


async def main():
    try:
        pass
    except* ValueError:
        pass
