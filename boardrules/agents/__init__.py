"""Agents on top of the GameState API: a fixed action encoding, numeric observations,
seats that mix external players with built-in or Python policies, and a baseline policy.
The PettingZoo, Gymnasium and OpenSpiel adapters (boardrules.pettingzoo,
boardrules.openspiel) and `boardrules play` build on these."""
