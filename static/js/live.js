/* Live updates of the game page.

   The game's event stream (games/stream.py) says only "version N". When N is not the version
   on screen, the table fetches its own fragment: the "nyet:moved" event makes #game send its
   hx-get (the poll URL, which answers 204 when nothing changed), so that hidden cards still
   come only from the seat's own view. EventSource reconnects by itself, and the stream says
   the current version first, so a reconnection misses nothing. "chat N" (the table chat's
   latest message) goes on to chat.js as the document event "nyet:chat-news". While the stream cannot
   connect, the table asks every 3 seconds instead, when the tab is visible. Without
   JavaScript the page has a link to reload it. */
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
    if (live(el) && window.htmx) {
      window.htmx.trigger(el, "nyet:moved");
    }
  }

  // The newest version the stream announced. htmx drops a request asked for while the table's
  // previous one is in flight, so each answer looks again whether the table is behind it.
  var announced = 0;

  function catchUp() {
    var current = game();
    if (current && announced > Number(current.dataset.version)) {
      refresh();
    }
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
    source.addEventListener("chat", function (event) {
      chatNews(Number(event.data));
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

  document.addEventListener("DOMContentLoaded", connect);
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
