"""The game's tables. None yet: the rules engine (games/engine) comes first, then the models
that store a game's seed and its move log (see ARCHITECTURE.md)."""
