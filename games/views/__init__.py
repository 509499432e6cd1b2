"""The game pages' views, thin: validate the request with a form, call one action or selector,
render. ``games/urls.py`` names each one where it lives:

- ``answers``: what every view shares: the game fragment, "no such game", 429, and the guard
  of every form that changes something (``person_post``);
- ``lobby``: the lobby, the games in play, and the ways to a new game (a table, one click
  against bots, the tutorial); the rules and the site's figures;
- ``seats``: an open table: joining and leaving it, its bots, its invitations, starting it;
- ``play``: the game page, its poll and past steps, the moves, resigning, the rematch;
- ``replay``: a game move by move, and its move log;
- ``chat``: the table chat and its reports;
- ``players``: a player's page and games, their vacation, the email unsubscribe link.

Every POST works without JavaScript (the answer redirects back to a page); under HTMX
(``request.htmx``) a table's form gets the game fragment instead (``games/game.html#game``, or
the table with its chat when the player takes or leaves a seat), and a chat's form the chat's
lines.
"""
