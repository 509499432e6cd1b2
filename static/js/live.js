/* Live updates of the game page.

   The game's event stream (games/stream.py) brings a player's page its seat's new table
   ("table": the fragment the poll would answer, from the seat's own view, hidden cards only
   ever its own); it says only "version N" to a spectator's page, to the player whose move it
   was (the move's answer is their table) and when the page must fetch its table itself. When
   the newest version said is not the one on screen and no table of it came, the table fetches
   its own fragment: the "nyet:moved" event makes #game send its hx-get (the poll URL, which
   answers 204 when nothing changed). EventSource reconnects by itself, and the stream says
   the current version first, so a reconnection misses nothing. "chat N" (the table chat's
   latest message) goes on to chat.js as the document event "nyet:chat-news". While the stream cannot
   connect, the table asks every 3 seconds instead, when the tab is visible. Without
   JavaScript the page has a link to reload it.

   The server makes the bots' moves as fast as it can; the pace a person can follow is the
   page's. A newer table that is more than one move ahead of the one on screen, or that comes
   sooner than the pause (data-pause, BOT_PAUSE_SECONDS) after it, is held back: the page shows
   each move between them first, the table as its own seat saw it right after that move
   (?step=K: read only, hidden cards only ever from that seat's view), data-pause apart, then
   the newest with its forms. */
(function () {
  "use strict";

  var source = null;
  var failures = 0;
  var fallback = null;

  function game() {
    return document.getElementById("game");
  }

  function live(el) {
    return el && el.getAttribute("hx-get") && el.dataset.events;
  }

  // The stream to hear: the table's while the game is on; after it, the chat's (if any).
  function eventsUrl() {
    var el = game();
    if (live(el)) {
      return el.dataset.events;
    }
    var chat = document.getElementById("chat");
    return chat ? chat.dataset.events : null;
  }

  function refresh() {
    var el = game();
    if (pacing) {
      return; // the held table is newer than anything asked now; catchUp looks again after it
    }
    if (live(el) && window.htmx) {
      window.htmx.trigger(el, "nyet:moved");
    }
  }

  // The newest version the stream announced. htmx drops a request asked for while the table's
  // previous one is in flight, so each answer looks again whether the table is behind it.
  var announced = 0;
  // The newest table the stream brought ({html, version, moves}), until it is shown.
  var streamed = null;

  function catchUp() {
    var current = game();
    if (!current || announced <= Number(current.dataset.version)) {
      return;
    }
    if (streamed && streamed.version >= announced && live(current)) {
      if (moving === null && !pacing) {
        var incoming = streamed;
        streamed = null;
        if (!arrive(current, incoming, false)) {
          show(current, incoming.html);
        }
      }
      return; // otherwise the move's answer, or the steps, come first; catchUp runs after them
    }
    refresh();
  }

  // A move (any form of the table: a box, the teams, a discard, a card...) is answered with the
  // newest table, the bots' replies made meanwhile included. A fetch of the table asked before
  // that answer came back may be answered with an older one (the move made, the bots halfway)
  // and, arriving first, takes the table's place: htmx then drops the move's answer, its target
  // being gone, and the player is left with a stale table, the focus on what was to do there,
  // until something newer is announced (with no stream, the next poll, 3 seconds on). So
  // while a move is on its way, the table asks for nothing, and a fetch already out is called
  // off: the move's answer comes after it and is newer.
  var moving = null; // the request of the move on its way

  function forTable(event) {
    var el = game();
    var detail = event.detail;
    return el && detail && detail.target === el ? el : null;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var el = forTable(event);
    if (el && event.detail.elt === el && moving !== null) {
      event.preventDefault(); // the move's answer will do; catchUp looks again after it
    }
  });
  // As the move goes out (it is not called off past this point).
  document.addEventListener("htmx:beforeSend", function (event) {
    var el = forTable(event);
    if (!el || event.detail.elt === el) {
      return;
    }
    var xhr = event.detail.xhr;
    moving = xhr;
    window.htmx.trigger(el, "htmx:abort"); // the table's own fetch, if one is out
    // Once htmx has handled the answer (swapped it in, or shown a failure), before catchUp.
    xhr.addEventListener("loadend", function () {
      if (moving === xhr) {
        moving = null;
      }
    });
  });

  // --- pacing: the moves not shown yet, one by one ------------------------------------------
  //
  // Every card is seen arriving in the trick (a trick's last card too: the taken trick stays
  // on the table until the next card) and every token on the board. The same pace with
  // prefers-reduced-motion: the steps are not an animation but the moves themselves, in the
  // order they were made, and nothing on them moves.

  // Further behind than this, the page shows the newest at once (a laptop that slept, a tab
  // left behind a table of bots): 20 moves are 12 seconds at the 0.6 s pause, more than the
  // bots ever make between two moves of a person (at 5 players, 9 at most: the board's last
  // 4 tokens, the teams and 4 discards; or the rest of a trick and the next one up to them).
  var MOST_STEPS = 20;
  var pacing = false; // steps are being shown: the table asks for nothing meanwhile
  var held = null; // the newest table come meanwhile: {html, version, moves}
  var shownAt = performance.now(); // when the move on screen was shown
  var shownMoves = null;

  function number(html, name) {
    var found = new RegExp("\\b" + name + '="(\\d+)"').exec(html);
    return found ? Number(found[1]) : NaN;
  }

  function pauseOf(el) {
    return Number(el.dataset.pause) * 1000 || 0;
  }

  function show(el, html) {
    // htmx.swap says nothing before it swaps: table.js hears this instead, to note the focus.
    el.dispatchEvent(new window.CustomEvent("nyet:swap", {bubbles: true, detail: {target: el}}));
    window.htmx.swap(el, html, {
      swapStyle: "outerHTML",
      swapDelay: 0,
      settleDelay: window.htmx.config.defaultSettleDelay,
    });
  }

  function wait(ms) {
    return new Promise(function (resolve) {
      window.setTimeout(resolve, Math.max(0, ms));
    });
  }

  // The table right after move ``moves`` as this seat saw it (the answer of a 4xx or a failed
  // fetch is null: the page then goes on to the newest).
  function step(el, moves) {
    if (!window.fetch) {
      return Promise.resolve(null);
    }
    var ask = {headers: {"HX-Request": "true"}, credentials: "same-origin"};
    return window
      .fetch(el.dataset.steps + moves, ask)
      .then(function (answer) {
        return answer.ok ? answer.text() : null;
      })
      .catch(function () {
        return null;
      });
  }

  function finish() {
    var el = game();
    var newest = held;
    held = null;
    pacing = false;
    if (el && newest) {
      show(el, newest.html);
    }
  }

  // One step, then the next, until the held table is the next move: it is shown last, when
  // its turn comes (``due``).
  function advance(due) {
    var el = game();
    var shown = Number(el && el.dataset.moves);
    var next = shown + 1;
    if (!el || held.moves - shown > MOST_STEPS || document.hidden) {
      finish();
    } else if (held.moves <= next) {
      wait(due - performance.now()).then(function () {
        // A newer table may have come meanwhile: then the move it passed is shown first.
        if (held.moves <= next) {
          finish();
        } else {
          advance(performance.now());
        }
      });
    } else {
      Promise.all([step(el, next), wait(due - performance.now())]).then(function (done) {
        var html = done[0];
        var current = game();
        if (html === null || number(html, "data-step") !== next || !current) {
          finish(); // no step to show: on to the newest
          return;
        }
        show(current, html);
        advance(performance.now() + pauseOf(current));
      });
    }
  }

  function parsed(html) {
    return {
      html: html,
      version: number(html, "data-version"),
      moves: number(html, "data-moves"),
    };
  }

  // A newer table for ``el`` (a move's answer when ``own``; else fetched, or brought by the
  // stream): true when it is held back while the moves before it are shown, false when it is
  // to be shown at once.
  function arrive(el, incoming, own) {
    if (pacing) {
      if (!(held && held.version >= incoming.version)) {
        held = incoming;
      }
      return true;
    }
    var shown = Number(el.dataset.moves);
    var pause = pauseOf(el);
    var ahead = incoming.moves - shown;
    // The player's own move (the answer of a form they sent: a post) is shown at once; what
    // follows it, and whatever the table fetched itself, the pause after the move on screen.
    var due = own ? performance.now() : shownAt + pause;
    var slow = ahead > 1 || (ahead === 1 && due > performance.now());
    // Choosing a discard while others do: the others' choices show nothing but "chose", and
    // read-only steps would take the player's form away, their cards half chosen.
    var choosing = el.dataset.phase === "discard" && el.dataset.myTurn === "1";
    if (!(pause > 0 && slow && ahead <= MOST_STEPS && !document.hidden) || choosing) {
      return false;
    }
    pacing = true;
    held = incoming;
    advance(due);
    return true;
  }

  // A table answered (a move, the poll, a step asked by htmx): shown at once, or held back
  // while the moves before it are shown.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var el = forTable(event);
    if (!el || !event.detail.shouldSwap) {
      return;
    }
    var config = event.detail.requestConfig;
    var own = config && String(config.verb).toLowerCase() === "post";
    if (arrive(el, parsed(event.detail.serverResponse || ""), own)) {
      event.detail.shouldSwap = false;
    }
  });

  // Each move shown, whatever showed it: the next waits the pause after it.
  document.addEventListener("htmx:afterSettle", function () {
    var el = game();
    if (el && el.dataset.moves !== shownMoves) {
      shownMoves = el.dataset.moves;
      shownAt = performance.now();
    }
  });

  function chatNews(last) {
    document.dispatchEvent(new window.CustomEvent("nyet:chat-news", {detail: {last: last}}));
  }

  function poll() {
    if (document.visibilityState === "visible") {
      refresh();
      // The chat asks too: its answer is 204 unless a message is newer than its last.
      var chat = document.getElementById("chat-lines");
      if (chat && window.htmx) {
        window.htmx.trigger(chat, "nyet:chat");
      }
    }
  }

  function startFallback() {
    if (fallback === null) {
      fallback = window.setInterval(poll, 3000);
    }
  }

  function stopFallback() {
    if (fallback !== null) {
      window.clearInterval(fallback);
      fallback = null;
    }
  }

  function close() {
    if (source !== null) {
      source.close();
      source = null;
    }
    stopFallback();
  }

  function connect() {
    var url = eventsUrl();
    if (!url) {
      return;
    }
    if (!window.EventSource) {
      startFallback();
      return;
    }
    source = new window.EventSource(url);
    source.addEventListener("open", function () {
      failures = 0;
      stopFallback();
      document.documentElement.dataset.live = "stream";
    });
    source.addEventListener("version", function (event) {
      announced = Math.max(announced, Number(event.data));
      catchUp();
    });
    source.addEventListener("table", function (event) {
      var incoming = parsed(event.data);
      if (!(streamed && streamed.version >= incoming.version)) {
        streamed = incoming;
      }
      announced = Math.max(announced, incoming.version);
      catchUp();
    });
    source.addEventListener("chat", function (event) {
      chatNews(Number(event.data));
    });
    source.addEventListener("here", function (event) {
      here = JSON.parse(event.data);
      showHere();
    });
    source.addEventListener("error", function () {
      failures += 1;
      // CLOSED: the browser gave up (the server said 204 or an error status) and will not retry.
      if (failures >= 2 || source.readyState === window.EventSource.CLOSED) {
        startFallback(); // the browser keeps trying to reconnect meanwhile
        document.documentElement.dataset.live = "poll";
      }
    });
  }

  // --- presence: which seats' players have this game's page open (games/presence.py) ------
  //
  // The stream says the seats whose player has a page of this game open, when that changes;
  // a table drawn since says what it knew then, so the stream's latest word is put back on it.
  var here = null;

  function showHere() {
    if (here === null) {
      return;
    }
    var marks = document.querySelectorAll("#game [data-presence]");
    Array.prototype.forEach.call(marks, function (mark) {
      if (mark.hasAttribute("data-me")) {
        return; // one's own page is open: it is this one
      }
      var on = here.indexOf(Number(mark.dataset.presence)) !== -1;
      mark.classList.toggle("is-here", on);
      mark.querySelector(".presence-symbol").textContent = on ? "\u25CF" : "\u25CB";
      mark.querySelector(".presence-word").textContent = on ? mark.dataset.here : mark.dataset.away;
    });
  }

  document.addEventListener("htmx:afterSettle", showHere);

  document.addEventListener("DOMContentLoaded", function () {
    var el = game();
    shownMoves = el ? el.dataset.moves : null;
    connect();
  });
  // A finished game has nothing more to say (its last fragment has no hx-get), unless its
  // players chat on.
  document.addEventListener("htmx:afterSettle", function () {
    if (source !== null && !eventsUrl()) {
      close();
    } else if (source !== null) {
      window.setTimeout(catchUp, 0);
    }
  });
  // After each answer of the page (and each fetch of the table called off for a move), once
  // htmx has let go of its request. A swapped table says so by afterSettle on the new
  // element (the old one, gone from the document, tells nobody); a 204 or a failure by
  // afterRequest; a failure is tried again a second later.
  document.addEventListener("htmx:afterRequest", function (event) {
    if (source !== null) {
      window.setTimeout(catchUp, event.detail.successful ? 0 : 1000);
    }
  });
  window.addEventListener("pagehide", close);
})();
