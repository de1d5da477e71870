"""Damaging game texts token by token, for the mutation tests (tests/lang/test_check.py, tests/run/test_mutation_fuzz.py)."""
from __future__ import annotations


def mutate(toks: list[str], ops) -> list[str]:
    """toks after the operations, each ("delete", i), ("insert", i, token), ("swap", i, j), ("truncate", i)
    or ("huge", k): positions are taken modulo the length at that point, so any integers will do."""
    toks = list(toks)
    for op in ops:
        if not toks:
            break
        n = len(toks)
        if op[0] == "delete":
            del toks[op[1] % n]
        elif op[0] == "insert":
            toks.insert(op[1] % (n + 1), op[2])
        elif op[0] == "swap":
            i, j = op[1] % n, op[2] % n
            toks[i], toks[j] = toks[j], toks[i]
        elif op[0] == "truncate":
            del toks[op[1] % n:]
        else:  # the k-th number of the file made huge (a count, a deck size, a score)
            numbers = [i for i, t in enumerate(toks) if t.isdigit()]
            if numbers:
                toks[numbers[op[1] % len(numbers)]] = "9" * 40
    return toks
