"""What integer forms mean (language spec §10): the one definition of `//`, `%`, `^`, `tri` and `fib`.

Both the checker (constant folding of declares and setup values) and the compiled game use
these functions, so a value computed at load time is the value the game computes.
"""
from __future__ import annotations

# Integers of a game have at most MAX_INT_DIGITS decimal digits (docs/limits.md): a literal, a
# constant folded at load time and a value computed in play.  Far more than any game needs and
# small enough that a number is always printable (Python refuses str() past 4,300 digits) and
# a mean of scores always fits in a float (about 1.8e308).
MAX_INT_DIGITS = 300
INT_BOUND = 10**MAX_INT_DIGITS  # |n| < INT_BOUND


class IntegerLimit(ValueError):
    """An integer past MAX_INT_DIGITS digits, or an operation that would make one."""


def too_big(what: str) -> IntegerLimit:
    return IntegerLimit(f"{what} has more than {MAX_INT_DIGITS} digits, the integer limit of a game "
                        "(MAX_INT_DIGITS, fixed; docs/limits.md)")


def bounded(n: int, what: str = "the result") -> int:
    """n itself, or IntegerLimit when it has more than MAX_INT_DIGITS digits."""
    if -INT_BOUND < n < INT_BOUND:
        return n
    raise too_big(what)


def product(a: int, b: int) -> int:
    """a*b within the integer limit; the check comes first, from the sizes, so a huge product is never made."""
    if a.bit_length() + b.bit_length() > _MAX_BITS + 2:
        raise too_big(f"({a if a.bit_length() < 64 else '…'} * {b if b.bit_length() < 64 else '…'})")
    return bounded(a * b)


_MAX_BITS = INT_BOUND.bit_length()

# A range A..B holds at most MAX_RANGE numbers, and a `repeat N` runs at most MAX_REPEAT times
# (docs/limits.md): both are made or run whole, so a huge one would hang or fill memory.
MAX_RANGE = 100_000
MAX_REPEAT = 100_000


def range_too_long(lo: int, hi: int) -> str:
    return (f"the range {lo}..{hi} holds more than {MAX_RANGE:,} numbers, the range limit "
            "(MAX_RANGE, fixed; docs/limits.md)")


def repeat_too_long(n: int) -> str:
    return (f"(repeat {n} …) runs more than {MAX_REPEAT:,} times, the repeat limit "
            "(MAX_REPEAT, fixed; docs/limits.md)")


def trunc_div(a: int, b: int) -> int:
    """§10 `//`: quotient truncated toward zero; b == 0 raises ZeroDivisionError."""
    q = abs(a) // abs(b)
    return -q if (a < 0) != (b < 0) else q


def trunc_mod(a: int, b: int) -> int:
    """§10 `%`: a - b*(a // b) with truncating //, so the sign follows the dividend."""
    q = abs(a) // abs(b)
    return a - b * (-q if (a < 0) != (b < 0) else q)


def tri(n: int) -> int:
    """§10 `tri`: n(n+1)/2; n < 0 raises ValueError."""
    if n < 0:
        raise ValueError(f"tri of a negative number: {n}")
    if n.bit_length() > _MAX_BITS // 2 + 1:
        raise too_big(f"(tri {n})")
    return bounded(n * (n + 1) // 2, f"(tri {n})")


def fib(n: int) -> int:
    """§10 `fib`: exact Fibonacci number (fib 0 = 0, fib 1 = 1); n < 0 raises ValueError."""
    if n < 0:
        raise ValueError(f"fib of a negative number: {n}")
    if n > 1500:  # fib 1500 has 314 digits: never compute a huge one
        raise too_big(f"(fib {n})")
    # iterative fast doubling over the bits of n: (a, b) = (F(m), F(m+1))
    a, b = 0, 1
    for bit in bin(n)[2:]:
        c = a * (2 * b - a)  # F(2m)
        d = a * a + b * b  # F(2m+1)
        if bit == "1":
            a, b = d, c + d
        else:
            a, b = c, d
    return bounded(a, f"(fib {n})")


def power(a: int, b: int) -> int:
    """§10 `^`: exact a**b with 0^0 = 1; b < 0 raises ValueError."""
    if b < 0:
        raise ValueError(f"negative exponent: {b}")
    if a in (0, 1) or b == 0:
        return 1 if b == 0 else a
    if a == -1:
        return 1 if b % 2 == 0 else -1
    # |a| >= 2: a**b has at least b bits, so the bound is checked from the sizes first
    if b > _MAX_BITS or (abs(a).bit_length() - 1) * b > _MAX_BITS:
        raise too_big(f"(^ {a if a.bit_length() < 64 else '…'} {b})")
    return bounded(a**b, f"(^ {a} {b})")
