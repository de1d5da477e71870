"""Generate recycle/lsp/formdocs.py, the hover texts of the forms, from docs/language.md.

The docs are not in the wheel, so the server cannot read them at run time: this script turns the
reference into a Python module, and tests/lsp/test_formdocs.py fails when the module is out of date.
Run it from the repository: `python -m recycle.lsp.gendocs`.

For each keyword: its section (a heading that names it, else the first section the form index of
§26 gives for it), its signature (the form index's `(keyword …)`, else the first `(keyword …)` the
section writes, else `(keyword …)`) and the first paragraph of prose of that section.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from ..lang.words import EXTENSION_KEYWORDS, KEYWORDS

ROOT = Path(__file__).resolve().parent.parent.parent
DOC = ROOT / "docs" / "language.md"
OUT = Path(__file__).resolve().parent / "formdocs.py"
HEADING = re.compile(r"^(#{2,3}) (\d+(?:\.\d+)?)\.? (.*)$")
CODE = re.compile(r"`([^`]+)`")
# Fixed words the headings and the form index do not name, and the section that explains them.
EXTRA = {"vloc": "6.1", "iloc": "6.1", "hloc": "6.1", "oloc": "6.1", "mem": "6.1", "sto": "13", "str": "13",
         "using": "10", "end": "4.6", "require": "15", "rank": "23", "suit": "23", "ace": "23", "low": "23",
         "high": "23", "both": "23", "around": "23", "wild": "23", "distinct": "23", "decisions": "21.2",
         "steps": "21.2", "square": "12.1", "hex": "12.1", "cyclic": "14", "override": "13.3", "largest": "7.2"}


def sections(text: str) -> dict[str, tuple[str, list[str]]]:
    """Section number -> (title, lines of its own text, up to the next heading)."""
    out: dict[str, tuple[str, list[str]]] = {}
    current: str | None = None
    fence = False
    for line in text.splitlines():
        if line.startswith("```"):
            fence = not fence
        m = None if fence else HEADING.match(line)
        if m:
            current = m.group(2)
            out[current] = (m.group(3).strip(), [])
        elif current is not None:
            out[current][1].append(line)
    return out


def first_paragraph(lines: list[str]) -> str:
    """The first block of prose lines (no code fence, table, list item or rule), joined."""
    para: list[str] = []
    fence = False
    for line in lines:
        if line.startswith("```"):
            fence = not fence
            if para:
                break
            continue
        if fence:
            continue
        s = line.strip()
        if not s or s.startswith(("|", "---", "* ")):
            if para:
                break
            continue
        para.append(s)
    return " ".join(para)


def table_row(lines: list[str], word: str) -> str:
    """A section that opens with a table: the row that writes the form, as `form — meaning`."""
    for line in lines:
        if line.startswith("| `") and re.search(r"`\(?" + word + r"[ )`]", line):
            cells = [_unescape(c.strip()) for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            return " — ".join(cells)
    return ""


def _unescape(s: str) -> str:
    return s.replace("\\|", "|")


def index_rows(text: str) -> list[tuple[list[str], list[str]]]:
    """The rows of §26's form index: (the forms written in backquotes, the section numbers)."""
    rows = []
    start = text.index("## 26. Form index")
    for line in text[start:].splitlines()[1:]:
        if line.startswith("## "):
            break  # the index ends where the next section starts
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        forms = [_unescape(c) for c in CODE.findall(cells[0])]
        secs = re.findall(r"\d+(?:\.\d+)?", cells[-1])
        rows.append((forms, secs))
    return rows


def _head(form: str) -> str | None:
    m = re.match(r"\(?([a-z]+)", form)
    return m.group(1) if m else None


def build(text: str) -> dict[str, tuple[str, str, str]]:
    """keyword -> (signature, "§N title", first paragraph)."""
    words = KEYWORDS | EXTENSION_KEYWORDS
    secs = sections(text)
    where: dict[str, str] = {}
    for num, (title, _) in secs.items():
        for w in re.findall(r"[A-Za-z]+", title):
            w = w.lower()
            if w in words and "." in num and w not in where:
                where[w] = num
    signature: dict[str, str] = {}
    for forms, nums in index_rows(text):
        for form in forms:
            head = form.split(" ")[0]
            # `(scoring max|min …)` is one form; `(current|next|previous player)` three heads
            heads = re.findall(r"[a-z]+", head) if "|" in head else [_head(form)]
            for w in heads:
                if w is None or w not in words:
                    continue
                if form.startswith("(") and w not in signature:
                    signature[w] = form.replace(head, "(" + w, 1) if "|" in head else form
                if nums and w not in where:
                    where[w] = nums[0]
    out: dict[str, tuple[str, str, str]] = {}
    for kw in sorted(words):
        found = where.get(kw) or EXTRA.get(kw)
        if found is None or found not in secs:
            continue
        num = found
        title, lines = secs[num]
        sig = signature.get(kw)
        if sig is None:
            body = "\n".join(lines)
            m = re.search(r"`(\(" + kw + r"(?:[ )][^`]*)?)`", body)
            if m:
                sig = _unescape(m.group(1))
            elif kw in ("vloc", "iloc", "hloc", "oloc", "mem", "sto", "str"):
                sig = f"(OWNER {kw} NAME)"
            else:
                sig = kw if kw in EXTRA else f"({kw} …)"
        para = first_paragraph(lines) or table_row(lines, kw)
        if not para:  # a chapter heading right before its first section
            sub = next((k for k in secs if k.startswith(num + ".")), None)
            para = first_paragraph(secs[sub][1]) if sub else ""
        out[kw] = (sig, f"§{num} {title}", para)
    return out


def render(forms: dict[str, tuple[str, str, str]]) -> str:
    lines = ["# ruff: noqa: E501",
             '"""The hover texts of the forms: generated from docs/language.md by `python -m recycle.lsp.gendocs`.',
             "", "Do not edit: change docs/language.md and run the script again (a test checks that it is current).",
             '"""', "from __future__ import annotations", "",
             "# keyword -> (signature, section, first paragraph of the section)",
             "FORMS: dict[str, tuple[str, str, str]] = {"]
    for w, entry in forms.items():
        lines.append(f"    {w!r}: {entry!r},")
    lines.append("}")
    return "\n".join(lines) + "\n"


def generate(doc: Path = DOC) -> str:
    return render(build(doc.read_text("utf-8")))


def main() -> int:
    OUT.write_text(generate(), "utf-8")
    print(f"wrote {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
