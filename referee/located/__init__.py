"""YAML with positions, the bottom layer: text read into a tree of located nodes (`tree`),
mistakes of layout said as what they are (`layout`), and a pydantic model's errors placed on the
nodes they concern (`model_check`)."""
