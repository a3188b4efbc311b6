"""The move values: the short texts of a game log (`clauses`), parsed into typed, frozen moves and
formatted back (`frozen`: the methods of frozen values, written once, that a position's records
use too). Below the engine, above the rulesets (a move names the ruleset's goods and
buildings)."""
