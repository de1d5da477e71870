"""A small TextMate grammar tokenizer for tests: the subset editors/vscode's grammar uses.

Supported: top-level and nested `patterns`, `include` of `#name` (the repository) and `$self`,
`match` with `name` and numbered `captures`, and `begin`/`end` regions with `name`,
`beginCaptures`, `endCaptures` and their own `patterns`.  Regular expressions are run with
Python's `re`, so the grammar keeps to what Python and Oniguruma read alike (fixed-width
lookbehinds, no possessive quantifiers).  As in TextMate, a region's end is tried with its
patterns and wins a tie; the earliest match on the line wins, and among equal starts the first
pattern listed.

`tokenize` returns every token (line, start, end, scopes) and the regions still open at the
end of the text; characters no pattern matched are tokens with only the enclosing scopes.
"""
from __future__ import annotations

import re
from functools import cache

import attrs


@attrs.frozen
class Token:
    line: int
    start: int
    end: int
    scopes: tuple[str, ...]
    matched: bool  # False: no rule matched these characters


@cache
def _rx(pattern: str) -> re.Pattern:
    return re.compile(pattern)


class Grammar:
    def __init__(self, grammar: dict):
        self.g = grammar
        self.scope = grammar["scopeName"]

    def _expand(self, patterns: list[dict]) -> list[dict]:
        out: list[dict] = []
        for p in patterns:
            inc = p.get("include")
            if inc == "$self":
                out.extend(self._expand(self.g["patterns"]))
            elif inc is not None:
                assert inc.startswith("#"), f"unsupported include {inc}"
                out.extend(self._expand([self.g["repository"][inc[1:]]]))
            elif "match" in p or "begin" in p:
                out.append(p)
            else:
                out.extend(self._expand(p.get("patterns", [])))
        return out

    def tokenize(self, text: str) -> tuple[list[Token], list[dict]]:
        stack: list[dict] = []  # open begin/end rules
        tokens: list[Token] = []
        for n, line in enumerate(text.split("\n")):
            pos = 0
            while pos <= len(line):
                rule = stack[-1] if stack else None
                scopes = (self.scope, *(r["name"] for r in stack if "name" in r))
                pats = self._expand(rule["patterns"] if rule else self.g["patterns"]) if (
                    rule is None or "patterns" in rule) else []
                best = None
                if rule is not None:
                    m = _rx(rule["end"]).search(line, pos)
                    if m:
                        best = (m.start(), 0, "end", m, rule)
                for i, p in enumerate(pats):
                    m = _rx(p.get("match") or p["begin"]).search(line, pos)
                    if m and (best is None or m.start() < best[0]):
                        best = (m.start(), i + 1, "match" if "match" in p else "begin", m, p)
                if best is None or (best[3].end() == best[3].start() and best[2] != "end" and best[0] >= len(line)):
                    if pos < len(line):
                        tokens.append(Token(n, pos, len(line), scopes, False))
                    break
                start, _, what, m, p = best
                if start > pos:
                    tokens.append(Token(n, pos, start, scopes, False))
                if what == "end":
                    tokens.extend(self._captures(n, m, p.get("endCaptures", {}), scopes))
                    stack.pop()
                elif what == "begin":
                    inner = (*scopes, p["name"]) if "name" in p else scopes
                    tokens.extend(self._captures(n, m, p.get("beginCaptures", {}), inner))
                    stack.append(p)
                else:
                    own = (*scopes, p["name"]) if "name" in p else scopes
                    tokens.extend(self._captures(n, m, p.get("captures", {}), own))
                if m.end() == m.start() and what == "match":
                    raise ValueError(f"empty match of {p.get('match')!r} at {n}:{pos}")
                pos = m.end()
                if pos >= len(line):
                    break
        return tokens, stack

    @staticmethod
    def _captures(n: int, m: re.Match, caps: dict, scopes: tuple[str, ...]) -> list[Token]:
        """The whole match as one token with scopes, its numbered groups with theirs where given."""
        if not caps:
            return [Token(n, m.start(), m.end(), scopes, True)] if m.end() > m.start() else []
        out = []
        cut = m.start()
        for k in sorted(caps, key=int):
            g = int(k)
            if m.start(g) < 0 or m.end(g) == m.start(g):
                continue
            if g == 0:
                return [Token(n, m.start(), m.end(), (*scopes, caps[k]["name"]), True)]
            if m.start(g) > cut:
                out.append(Token(n, cut, m.start(g), scopes, True))
            out.append(Token(n, m.start(g), m.end(g), (*scopes, caps[k]["name"]), True))
            cut = m.end(g)
        if m.end() > cut:
            out.append(Token(n, cut, m.end(), scopes, True))
        return out
