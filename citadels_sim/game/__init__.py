"""The game as data: its configuration and validation, the card facts, and the strategy
presets."""
