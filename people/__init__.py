"""Finding and following players (docs/features.md "Finding and following players"):
the search by name, follows, the list of the people you follow with who is
online and in a match, the profile's follow section (a template tag)."""
