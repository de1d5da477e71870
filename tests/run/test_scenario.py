"""Scenario: constructed positions judged by a game's own rules (shipped Block Rummy)."""
from recycle.run.scenario import Scenario

GAME = "games/block_rummy.gdl"


def _empty_hands(sc):
    sc.run()  # the opening do block sets the point maps and deals
    for p in (0, 1):
        sc.move_all(p, "iloc", "HAND")


def test_scores_follow_the_games_deadwood_rule():
    sc = Scenario.open(GAME)
    _empty_hands(sc)
    sc.place(sc.card(RANK="FIVE", SUIT="HEARTS"), 0, "iloc", "HAND")
    sc.place(sc.card(RANK="K", SUIT="CLUBS"), 1, "iloc", "HAND")
    sc.place(sc.card(RANK="A", SUIT="CLUBS"), 1, "iloc", "HAND")
    assert sc.scores() == [5, 11]
    out = sc.outcome()
    assert out.ranks == [1, 2] and out.winners == [0]


def test_options_are_rebuilt_for_the_arranged_state():
    sc = Scenario.open(GAME)
    sc.run()
    assert len(sc.options()) == 2  # draw from stock or take the discard
    sc.move_all("game", "vloc", "DISCARD", to=("game", "iloc", "STOCK", 0))
    # With the discard pile empty, taking it fails: a run-time error of the game.
    sc.options()
    assert sc.st.status == 4 and sc.st.error.cls == "no-card"


def test_card_lookup_is_exact():
    sc = Scenario.open(GAME)
    assert len(sc.cards(RANK="Q")) == 4
    try:
        sc.card(RANK="Q")
    except ValueError as e:
        assert "4 cards match" in str(e)
    else:
        raise AssertionError("an ambiguous card lookup must fail")


def test_clear_puts_every_card_back():
    sc = Scenario.open(GAME)
    before = sc.contents("game", "iloc", "STOCK")
    sc.place(before[0], 0, "iloc", "HAND")
    sc.clear()
    assert sorted(sc.contents("game", "iloc", "STOCK")) == sorted(before)


def test_storage_can_be_set_on_every_kind_of_owner():
    sc = Scenario.open(GAME)
    sc.set("game", "sto", "RUNS", 3)
    sc.set(1, "str", "LAYOFF", "OPEN")
    sc.set(("game", "vloc", "DISCARD"), "sto", "MARK", 2)
    assert sc.get("game", "sto", "RUNS") == 3
    assert sc.get(1, "str", "LAYOFF") == "OPEN"
    assert sc.get(("game", "vloc", "DISCARD"), "sto", "MARK") == 2
    assert sc.get(0, "str", "LAYOFF") == ""  # never set: the default


def test_a_card_str_cell_named_like_an_attribute_overrides_it():
    sc = Scenario.open(GAME)
    sc.run()
    for p in (0, 1):
        sc.move_all(p, "iloc", "HAND")
    five = sc.card(RANK="FIVE", SUIT="HEARTS")
    sc.place(five, 0, "iloc", "HAND")
    assert sc.scores()[0] == 5
    sc.set(("card", five), "str", "RANK", "K")  # the card now reads as a king: 10 points
    assert sc.scores()[0] == 10


def test_keys_are_the_games_tiebreaks():
    sc = Scenario.open("games/rummy_squared.gdl")
    sc.run()
    keys = sc.keys()
    assert len(keys) == 2 and all(len(k) == len(keys[0]) for k in keys)
    assert Scenario.open(GAME).keys() is None  # Block Rummy has no tiebreak
