"""The rules engine: game state, phases, building powers. No files, no terminal."""
