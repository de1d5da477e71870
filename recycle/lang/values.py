"""What integer forms mean (language spec §10): the one definition of `//`, `%`, `^`, `tri` and `fib`.

Both the checker (constant folding of declares and setup values) and the compiled game use
these functions, so a value computed at load time is the value the game computes.
"""
from __future__ import annotations


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
    return n * (n + 1) // 2


def fib(n: int) -> int:
    """§10 `fib`: exact Fibonacci number (fib 0 = 0, fib 1 = 1); n < 0 raises ValueError."""
    if n < 0:
        raise ValueError(f"fib of a negative number: {n}")
    # iterative fast doubling over the bits of n: (a, b) = (F(m), F(m+1))
    a, b = 0, 1
    for bit in bin(n)[2:]:
        c = a * (2 * b - a)  # F(2m)
        d = a * a + b * b  # F(2m+1)
        if bit == "1":
            a, b = d, c + d
        else:
            a, b = c, d
    return a


def power(a: int, b: int) -> int:
    """§10 `^`: exact a**b with 0^0 = 1; b < 0 raises ValueError."""
    if b < 0:
        raise ValueError(f"negative exponent: {b}")
    return a**b
