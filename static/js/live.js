/* Live updates of the game page.

   The game's event stream (games/stream.py) says only "version N". When N is not the version
   on screen, the table fetches its own fragment: the "nyet:moved" event makes #game send its
   hx-get (the poll URL, which answers 204 when nothing changed), so that hidden cards still
   come only from the seat's own view. EventSource reconnects by itself, and the stream says
   the current version first, so a reconnection misses nothing. While the stream cannot
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

  function poll() {
    if (document.visibilityState === "visible") {
      refresh();
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
    var el = game();
    if (!live(el)) {
      return;
    }
    if (!window.EventSource) {
      startFallback();
      return;
    }
    source = new window.EventSource(el.dataset.events);
    source.addEventListener("open", function () {
      failures = 0;
      stopFallback();
      document.documentElement.dataset.live = "stream";
    });
    source.addEventListener("version", function (event) {
      announced = Math.max(announced, Number(event.data));
      catchUp();
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
  // A finished game has nothing more to say: its last fragment has no hx-get.
  document.addEventListener("htmx:afterSettle", function () {
    if (source !== null && !live(game())) {
      close();
    } else if (source !== null) {
      window.setTimeout(catchUp, 0);
    }
  });
  // After each answer of the page (a move's answer may even be swapped in after a newer table),
  // once htmx has let go of its request. A swapped table says so by afterSettle on the new
  // element (the old one, gone from the document, tells nobody); a 204 or a failure by
  // afterRequest; a failure is tried again a second later.
  document.addEventListener("htmx:afterRequest", function (event) {
    if (source !== null) {
      window.setTimeout(catchUp, event.detail.successful ? 0 : 1000);
    }
  });
  window.addEventListener("pagehide", close);
})();
