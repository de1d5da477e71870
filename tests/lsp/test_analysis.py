"""What the language server answers (recycle/lsp/analysis.py, no protocol): names across a variant and its
base, hovers, completions, the outline, formatting, diagnostics placed in the file, and the form
docs generated from docs/language.md being current."""
from __future__ import annotations

from recycle.lang import library
from recycle.lsp import analysis as An
from recycle.lsp import gendocs
from recycle.lsp.formdocs import FORMS
from support import GAMES, REPO


def at(text: str, needle: str, offset: int = 0) -> An.Pos:
    i = text.index(needle) + offset
    return text.count("\n", 0, i), i - (text.rfind("\n", 0, i) + 1)


def test_formdocs_is_generated_from_the_current_language_doc():
    """formdocs.py is what `python -m recycle.lsp.gendocs` writes from docs/language.md today."""
    assert (REPO / "recycle" / "lsp" / "formdocs.py").read_text("utf-8") == gendocs.generate()


def test_the_form_index_ends_at_the_next_section():
    """Tables of a section after §26 (such as §27's old forms) are not read as rows of the index."""
    text = ("## 26. Form index\n\n| form | § |\n|---|---|\n| `(size COLL)` | 7.4 |\n\n"
            "## 27. After\n\n| old | new |\n|---|---|\n| `(size 'V)` | 27 |\n")
    assert gendocs.index_rows(text) == [(["(size COLL)"], ["7.4"])]


def test_every_keyword_has_a_hover_with_a_section():
    from recycle.lang.words import EXTENSION_KEYWORDS, KEYWORDS
    assert set(FORMS) == KEYWORDS | EXTENSION_KEYWORDS
    sig, sec, para = FORMS["move"]
    assert sig == "(move CARD DESTINATION)" and sec == "§5.1 move" and para.startswith("`(move CARD DESTINATION)`")
    assert FORMS["extends"][1] == "§24 Variants"
    assert all(para for _, _, para in FORMS.values())


VARIANT = """;; a variant
(game (extends "gin_rummy")
 (declare 50 'TARGET)
 (define (DEADWOOD 'P) (deadwood (HAND 'P) using 'MELDS (game points VALUE))))
"""


def test_definitions_and_references_across_a_variant_and_its_base(tmp_path):
    path = tmp_path / "v.gdl"
    path.write_text(VARIANT, "utf-8")
    docs = An.chain(An.Document(VARIANT, str(path)))
    assert [d.path for d in docs] == [str(path), str(library.shipped()["gin_rummy"])]
    base = docs[1]
    # HAND is defined in the base only: definition goes there
    d, tok = An.definition(docs, at(VARIANT, "(HAND 'P)", 1))
    assert d is base and base.lines[tok.start[0]].strip().startswith("(define (HAND 'P)")
    # DEADWOOD is redefined by the variant: the variant's own define wins
    d, tok = An.definition(docs, at(VARIANT, "DEADWOOD"))
    assert d is docs[0] and tok.start == at(VARIANT, "DEADWOOD")
    # references of DEADWOOD: both defines and every use in the base
    refs = An.references(docs, at(VARIANT, "DEADWOOD"))
    base_uses = base.text.count("(DEADWOOD ")
    assert len(refs) == base_uses + 1 and {r[0].path for r in refs} == {docs[0].path, base.path}
    # a declared variable of the variant is its own declare; a storage name used only in the base is found there
    d, tok = An.definition(docs, at(VARIANT, "'MELDS", 1))
    assert d is base and "'MELDS)" in base.lines[tok.start[0]]
    d, tok = An.definition(docs, at(VARIANT, "VALUE"))
    assert d is base and "(set (game points VALUE)" in base.lines[tok.start[0]]


def test_hovers_on_forms_names_and_variables(tmp_path):
    path = tmp_path / "v.gdl"
    path.write_text(VARIANT, "utf-8")
    docs = An.chain(An.Document(VARIANT, str(path)))
    h = An.hover(docs, at(VARIANT, "deadwood (HAND", 2))
    assert "§23 Melds" in h and "(deadwood P using R PM)" in h
    h = An.hover(docs, at(VARIANT, "(HAND 'P)", 1))
    assert "a definition" in h and "(define (HAND 'P) ('P iloc HAND))" in h and "gin_rummy.gdl:" in h
    h = An.hover(docs, at(VARIANT, "(HAND 'P)", 7))
    assert "'P" in h and "parameter of a definition" in h
    h = An.hover(docs, at(VARIANT, "'TARGET", 1))
    assert "declared value" in h
    h = An.hover(docs, at(VARIANT, "VALUE"))
    assert "storage" in h and "`points` a point map" in h


def test_completions_by_place(tmp_path):
    text = '(game (extends "gin_r'
    items = An.completions([An.Document(text)], (0, len(text)))
    assert {i.label for i in items} == set(library.shipped())
    text = "(game\n (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, B)))))\n (do ((move (top (game iloc STOCK)) (top (game vloc "
    items = An.completions([An.Document(text)], (2, len(text.split("\n")[2])))
    assert [i.label for i in items] == ["STOCK"]
    text = "(game\n (define (D) 1)\n ("
    labels = {i.label for i in An.completions([An.Document(text)], (2, 2))}
    assert {"declare", "define", "setup", "stage", "D"} <= labels and "cardatt" not in labels
    text = "(game\n (setup (create deck (game iloc S) (deck (RANK (A, B)) (SUIT (X, Y)))))\n (do ((set (game str X) (cardatt "
    labels = [i.label for i in An.completions([An.Document(text)], (2, len(text.split("\n")[2])))]
    assert labels == ["RANK", "SUIT"]
    text = "(game\n (setup (create "
    assert [i.label for i in An.completions([An.Document(text)], (1, len(text.split("\n")[1])))] == [
        "players", "teams", "deck", "board"]
    text = "(game\n (do ((move (top ('P "
    labels = {i.label for i in An.completions([An.Document(text)], (1, len(text.split("\n")[1])))}
    assert labels == {"vloc", "iloc", "hloc", "oloc", "mem", "sto", "str", "points", "ply"}


def test_the_outline_of_a_shipped_game():
    doc = An.Document((GAMES / "gin_rummy.gdl").read_text("utf-8"))
    syms = An.symbols(doc)
    kinds = [s.kind for s in syms]
    assert kinds.count("define") == 7 and "setup" in kinds and "scoring" in kinds
    assert "(HAND 'P)" in [s.name for s in syms]


def test_a_broken_file_still_reads_and_its_diagnostics_have_ranges():
    text = "(game\n (define (D 'X) (size 'X))\n (setup (create players 2)\n"  # never closed
    doc = An.Document(text)
    assert [s.name for s in An.symbols(doc)] == ["(D 'X)", "setup"]
    probs = An.diagnose(doc)
    assert len(probs) == 1 and probs[0].severity == "error" and "never closed" in probs[0].message
    assert probs[0].start == (2, 1)


def test_warnings_are_diagnostics_too():
    text = "(game\n (define (UNUSED) 1)\n (setup (create players 2) (create deck (game iloc S) (deck (RANK (A, B)))))\n (do ((shuffle (game iloc S))))\n (scoring max 0))\n"
    probs = An.diagnose(An.Document(text))
    assert [p.severity for p in probs] == ["warning"]
    assert probs[0].start == (1, 1)


def test_a_base_s_mistake_is_shown_at_the_extends(tmp_path):
    (tmp_path / "base.gdl").write_text("(game\n (setup (create players 2))\n (do ((sise 1)))\n (scoring max 0))\n")
    text = '(game (extends "base"))\n'
    path = tmp_path / "v.gdl"
    path.write_text(text)
    probs = An.diagnose(An.Document(text, str(path)))
    assert probs and probs[0].start == at(text, '"base"') and "base.gdl:3:" in probs[0].message


def test_formatting_only_without_comments_and_never_a_variant():
    plain = "(game (setup (create players 2) (create deck (game iloc S) (deck (RANK (A, B))))) (do ((shuffle (game iloc S)))) (scoring max 0))"
    out, why = An.format_text(An.Document(plain))
    assert why == "" and out is not None and out.startswith("(game\n")
    out2, _ = An.format_text(An.Document(out))
    assert out2 == out  # the canonical text is a fixed point
    out, why = An.format_text(An.Document(";; title\n" + plain))
    assert out is None and "comment" in why
    out, why = An.format_text(An.Document('(game (extends "gin_rummy"))'))
    assert out is None and "variant" in why


def test_a_document_is_read_and_formatted_in_the_server_s_dialect():
    # an award condition without its colon exists only in CardStockXam (docs/language.md §27)
    old = ("(game (setup (create players 2) (create deck (game iloc S) (deck (RANK (A, B)))))"
           " (do ((set (game points V) (((RANK (A)) 1))))) (scoring max (sum (game iloc S) using (game points V))))")
    assert [p.cls for p in An.diagnose(An.Document(old))] == ["dialect"]  # auto switches, and says so
    assert An.diagnose(An.Document(old, dialect="xam")) == []
    assert "unsupported" in [p.cls for p in An.diagnose(An.Document(old, dialect="modern"))]
    out, why = An.format_text(An.Document(old, dialect="xam"))
    assert why == "" and out is not None and "(RANK : A)" in out  # the printer writes the modern form
    assert An.format_text(An.Document(old, dialect="modern"))[0] is None


def test_a_base_name_too_long_for_the_system_ends_the_chain(tmp_path):
    """The editor's chain of bases stops at a name the system cannot look up, as at a missing base."""
    for name in ("b" * 300, "b" * 300 + ".gdl"):
        doc = An.Document(f'(game (extends "{name}"))\n', str(tmp_path / "v.gdl"))
        assert An.chain(doc) == [doc]


def test_a_position_outside_the_document_is_answered_not_a_crash():
    """A client's position past the end, or a negative one, gets the answer of no place (a line -5 of a
    3-line text used to be an IndexError in completions)."""
    text = "(game\n (define (D) 1)\n (do ((set (game sto X) (D)))))"
    docs = [An.Document(text)]
    for pos in [(-5, 0), (-1, 3), (3, 0), (99, 99), (0, -4), (1, 999)]:
        assert An.hover(docs, pos) is None
        assert An.definition(docs, pos) is None
        assert An.references(docs, pos) == []
        labels = {i.label for i in An.completions(docs, pos)}
        assert "stage" in labels  # the top level's forms: no place in the text narrows them
