"""The ``/api/v1/`` schemas: what each route takes and answers, and the streams' events. They
make the OpenAPI document (``/api/v1/openapi.json``), with the streams added to it
(``events.with_streams``). Each lives in the module named for what it holds, and is imported
from there (nothing is re-exported here):

- ``enums``: the enums, each read from a list the site keeps;
- ``moves``: the engine's moves, one schema per kind, and their unions (``Move``, ``SeatedMove``);
- ``view``: a game as one seat sees it (``View``), the deliberate mirror of the engine's view;
- ``games``: the tables and games routes' schemas (a table, a game, its record), and ``Error``;
- ``account``: who the caller is, with the rating;
- ``events``: the streams' events, and ``with_streams``.
"""
