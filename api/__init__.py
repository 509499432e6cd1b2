"""The open JSON API, ``/api/v1/``: programs play Nyet! as people do, through the same actions
and the same views of the game (``api/v1.py``), authenticated by personal tokens
(``api/tokens.py``) or by the site's own session."""
