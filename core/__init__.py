"""Parlour's platform layer: what every app shares and no app owns (README "Where things live"). No models."""
