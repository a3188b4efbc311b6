"""The documents: the game log, the score sheet and the shipping position, each read with the
place of every value (`log`, `sheet`, `position`, with their pydantic models `log_model` and
`position_model` for the JSON Schemas and for documents not plainly well-formed), written back
(`write`, `write_position`), and which document a file is (`kind`)."""
