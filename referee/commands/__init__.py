"""The top layer: the `referee` command line (`cli`, with `ship` and `schema` behind two of its
commands) and `referee serve` (`server`, with the page in `web/`)."""
