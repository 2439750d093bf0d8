"""Arenas: scheduled tournaments (README "Arenas")."""
