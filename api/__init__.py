"""The open JSON API, ``/api/v1/``: programs play Nyet! as people do, through the same actions
and the same views of the game (the routes in ``api/v1.py`` and ``api/challenges.py``, the
streams in ``api/stream.py``), authenticated by personal tokens (``api/tokens.py``, checked in
``api/access.py``) or by the site's own session."""
