"""Rendering: reports, rules and shipping answers as text and JSON, and the one table drawer."""
