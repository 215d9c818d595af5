"""Play as printed (issue 11): in Disney games of the default strategy, players act on
other players' turns, in the library's windows, as the rulebook's "at any time" lets
them (build, mortgage or lift mortgages, trade), and bundles of several assets change
hands. Read from the games' traces, where each decision names who made it under the
turn of the player whose turn it is."""

from __future__ import annotations

from collections import Counter

EDITION = "disney_theme_park"
GAMES = 60
BUNDLE_PARTS = ("trade_ask", "trade_give", "trade_card")


def decisions_out_of_turn(trace: list[str]) -> tuple[Counter, int]:
    """Decisions other than a pass, taken by a player whose turn it is not, by name;
    and how many accepted trades held two assets or more."""
    acted: Counter = Counter()
    current = None
    assets = bundles = 0
    for line in trace:
        words = line.split()
        if line.startswith("turn "):
            current = words[2]
            continue
        if len(words) < 3 or words[1] != "decides":
            continue
        who, (name, _, answer) = words[0], words[2].partition("=")
        if name == "propose_trade":
            assets = 0
        elif name in BUNDLE_PARTS and answer != "none":
            assets += 1
        elif name == "accept_trade" and answer == "yes" and assets >= 2:
            bundles += 1
        if who != current and answer not in ("none", "no", "0"):
            acted[name] += 1
    return acted, bundles


def test_players_build_mortgage_and_trade_on_other_players_turns(compiled):
    acted: Counter = Counter()
    bundles = 0
    for seed in range(GAMES):
        game = compiled.Game(4, seed=seed, trace=True)
        game.play()
        found, several = decisions_out_of_turn(game.trace())
        acted += found
        bundles += several
    assert acted["build_on"] > 0, acted
    assert acted["raise_from"] + acted["dispose"] > 0, acted  # mortgaged or sold back
    assert acted["unmortgage"] > 0, acted
    assert acted["propose_trade"] > 0 and acted["accept_trade"] > 0, acted
    assert bundles > 0, "no trade of two assets or more was accepted"


def test_the_reader_counts_only_other_players_decisions():
    trace = ["turn 1 p1 cash=1500", "  p1 decides build_on=matterhorn",
             "  p2 decides build_on=orbitron", "  p2 decides build_on=none",
             "  p3 decides propose_trade=p2", "  p3 decides trade_ask=boat",
             "  p3 decides trade_give=monorail", "  p3 decides trade_ask=none",
             "  p2 decides accept_trade=yes"]
    acted, bundles = decisions_out_of_turn(trace)
    assert acted == Counter({"build_on": 1, "propose_trade": 1, "trade_ask": 1,
                             "trade_give": 1, "accept_trade": 1})
    assert bundles == 1
