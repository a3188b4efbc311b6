"""The reports of many logs as one SARIF 2.1.0 document (what code scanning reads): one run of
referee, each rule id met a rule with its description, each diagnostic a result with its region.

Built from the reports' JSON (`report_json`), which is what the workers of a batch send back.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any
from urllib.parse import quote

from referee.ground.wording import json_text
from referee.version import __version__

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"

# What each family of rule ids is about (the part of the id before the first dot).
FAMILIES = {
    "input": "reading the file",
    "yaml": "YAML syntax",
    "log": "the form of a game log",
    "sheet": "the form and numbers of a score sheet",
    "position": "the form of a shipping position",
    "ruleset": "the ruleset named",
    "setup": "the setup of the game",
    "role": "choosing a role",
    "turn": "the order of turns",
    "phase": "the phases of a round",
    "settler": "the settler phase",
    "mayor": "the mayor phase",
    "builder": "the builder phase",
    "craftsman": "the craftsman phase",
    "trader": "the trader phase",
    "captain": "the captain phase",
    "prospector": "the prospector phase",
    "guest": "the guest house",
    "move": "the moves of a phase",
    "result": "the result written in the log",
    "game": "the end of the game",
    "internal": "a failure of referee itself",
}


def sarif_document(reports: list[dict[str, Any]]) -> str:
    """One SARIF log for the reports (each a parsed `report_json` object), in their order."""
    rules: dict[str, int] = {}
    descriptors: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    for report in reports:
        for error in report["errors"]:
            rule = error["rule"]
            if rule not in rules:
                rules[rule] = len(descriptors)
                family = FAMILIES.get(rule.split(".")[0], "the rules of the game")
                descriptors.append(
                    {
                        "id": rule,
                        "name": rule.replace(".", "/"),
                        "shortDescription": {"text": f"{rule}: a rule of {family}"},
                        "fullDescription": {"text": error["message"]},
                        "defaultConfiguration": {"level": "error"},
                    }
                )
            location: dict[str, Any] = {"artifactLocation": {"uri": _uri(error.get("file") or report["file"])}}
            if error["line"] is not None:
                location["region"] = {"startLine": error["line"], "startColumn": error["column"]}
            results.append({"ruleId": rule, "ruleIndex": rules[rule], "level": "error", "message": {"text": error["message"]}, "locations": [{"physicalLocation": location}]})
    driver = {"name": "referee", "version": __version__, "informationUri": "https://pypi.org/project/referee/", "rules": descriptors}
    return json_text({"$schema": SCHEMA, "version": "2.1.0", "runs": [{"tool": {"driver": driver}, "results": results}]})


def _uri(file: str) -> str:
    """A file name as a URI reference: relative paths stay relative, absolute ones are file URIs.
    Every character but `/` and ASCII letters and digits is percent-encoded, from UTF-8; a name's
    bytes that are not UTF-8 (lone surrogates, if any reach here) as the bytes they were."""
    path = PurePath(file)
    try:
        raw = path.as_posix().encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate no byte stands for: written as its escape
        raw = path.as_posix().encode("utf-8", "backslashreplace")
    text = quote(raw, safe="/")
    return f"file://{text}" if path.is_absolute() else text
