"""Bots: players that choose a move from what their seat sees (``view(state, seat)``) and their own
random generator, never from the full state."""
