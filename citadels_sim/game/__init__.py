"""The game as data: its configuration and validation, the card facts and the 2016 named
sets, and the strategy presets."""
