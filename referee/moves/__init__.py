"""The move values: the short texts of a game log (`clauses`), parsed into typed, frozen moves and
formatted back. Below the engine, above the rulesets (a move names the ruleset's goods and
buildings)."""
