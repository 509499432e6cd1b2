"""What the apps and the project share and import from one place: a refusal's words
(``refusals``), the base of every form (``forms``), the shared cache (``cache``) and the check
at the door on what a request may hold (``input_guard``).

It imports none of the apps (``accounts``, ``games``, ``api``) nor the project (``nyet_site``),
which import it: ``tests/test_imports.py`` keeps it so."""
