/* The table chat (games/game.html#chat). The game's event stream says "chat N" when the
   table's latest message is N (live.js passes it on as "nyet:chat-news"); the lines then fetch
   themselves (their hx-get). A sent message empties the box and keeps the focus there; the
   newest line stays in view. */
(function () {
  "use strict";

  function lines() {
    return document.getElementById("chat-lines");
  }

  function showNewest() {
    var list = lines() && lines().querySelector("ol");
    if (list) {
      list.scrollTop = list.scrollHeight;
    }
  }

  document.addEventListener("nyet:chat-news", function (event) {
    var el = lines();
    if (el && window.htmx && event.detail.last > Number(el.dataset.last)) {
      window.htmx.trigger(el, "nyet:chat");
    }
  });

  document.addEventListener("nyet:chat-sent", function () {
    var box = document.getElementById("chat-text");
    if (box) {
      box.value = "";
      box.focus();
    }
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target && event.target.id === "chat-lines") {
      showNewest();
    }
  });
  document.addEventListener("DOMContentLoaded", showNewest);
})();
