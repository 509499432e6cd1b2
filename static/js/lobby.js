/* Nyet! online: the lobby's new-game form shows the seats of the chosen number of players only.
   Without this script every seat is shown, the page says that those beyond the number of
   players are ignored, and the server ignores them (games.forms.new_game.CreateGameForm). */
(function () {
  "use strict";

  // A seat beyond the number of players is hidden, and its menu disabled: it is neither
  // reached by Tab, nor read, nor sent.
  function showSeats(form) {
    var players = form && form.querySelector("select[name=players]");
    if (!players) {
      return;
    }
    var count = parseInt(players.value, 10);
    form.querySelectorAll("[data-seat]").forEach(function (row) {
      var beyond = parseInt(row.getAttribute("data-seat"), 10) >= count;
      row.hidden = beyond;
      row.querySelectorAll("select").forEach(function (menu) {
        menu.disabled = beyond;
      });
    });
  }

  function changed(event) {
    var form = event.target.closest && event.target.closest("form.new-game");
    if (form && event.target.name === "players") {
      showSeats(form);
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form.new-game");
    showSeats(form);
    if (form) {
      // "Seats beyond the number of players are ignored": true only of a page without script.
      form.querySelectorAll("[data-without-script]").forEach(function (note) {
        note.hidden = true;
      });
    }
  });
  // "input" as the choice changes (arrow keys on a closed menu), "change" for older browsers.
  document.addEventListener("input", changed);
  document.addEventListener("change", changed);
})();
