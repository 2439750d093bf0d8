"""Challenges: actions (the only writers of challenges and challenge
preferences), views and URLs."""
