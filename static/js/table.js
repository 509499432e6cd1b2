/* Nyet! online: the small helpers of the game table. The pages work without this file (every
   control is a plain form or link); it only makes them quicker to use:
   - live countdowns on the seats that must act, and times in the browser's time zone when the
     player has chosen none (the zone is reported to the server, for their emails);
   - "Your turn" in the tab title and a badge on the favicon, and an optional sound;
   - after every update of the table (a move, a poll, a pushed event: any htmx swap), the focus
     lands on the next thing to act on, or stays where it was;
   - the hand and the board are each one tab stop (a roving tabindex, as WAI-ARIA's toolbar):
     the arrow keys, Home and End move inside; Enter or Space plays a card or says NYET!; in a
     discard or pass, Space selects the focused card and Enter sends the choice (the focused
     card with it while the choice is one card short); in the team form Enter sends it;
   - the first player forms the teams by clicking seats;
   - the replay steps with the arrow keys;
   - the new-game form offers the bot levels for correspondence games only (Expert) while a
     correspondence time is chosen. */
(function () {
  "use strict";

  var started = performance.now();
  var wasMyTurn = null;
  var before = null; // what had the focus inside the table when an update began

  // --- times ------------------------------------------------------------------------------------

  function two(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function clockText(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    return h ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
  }

  function tick() {
    var now = performance.now();
    document.querySelectorAll(".countdown[data-seconds]").forEach(function (el) {
      if (el._from === undefined) {
        el._from = now;
      }
      var left = Number(el.dataset.seconds) - (now - el._from) / 1000;
      // A day or more is said in words by the server, and changes too slowly to count here.
      if (left < 86400) {
        el.textContent = clockText(left);
      }
    });
  }

  function localTimes(root) {
    if (!document.body.hasAttribute("data-local-times") || !window.Intl) {
      return;
    }
    var lang = document.documentElement.lang || undefined;
    var today = new Date().toDateString();
    root.querySelectorAll("time[datetime]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (isNaN(when)) {
        return;
      }
      var options = when.toDateString() === today
        ? { timeStyle: "short" }
        : { dateStyle: "medium", timeStyle: "short" };
      el.textContent = new Intl.DateTimeFormat(lang, options).format(when);
    });
  }

  // The browser's zone, for a player who keeps it: the server stores it from this cookie
  // (accounts/middleware.py) and sends their emails, and the daily digest at 07:00, in it.
  function reportZone() {
    if (!document.body.hasAttribute("data-local-times") || !window.Intl) {
      return;
    }
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone) {
      document.cookie = "nyet_zone=" + zone + "; path=/; max-age=31536000; samesite=lax" +
        (location.protocol === "https:" ? "; secure" : "");
    }
  }

  // --- whose turn: tab title, favicon, sound --------------------------------------------------------

  function beep() {
    try {
      var Context = window.AudioContext || window.webkitAudioContext;
      var audio = new Context();
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.frequency.setValueAtTime(660, audio.currentTime);
      tone.frequency.setValueAtTime(880, audio.currentTime + 0.12);
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.35);
    } catch (e) {
      // no sound where the browser allows none
    }
  }

  function turnSignals(game) {
    var mine = game.dataset.myTurn === "1";
    var prefix = game.dataset.turnTitle + " · ";
    var title = document.title;
    if (title.indexOf(prefix) === 0) {
      title = title.slice(prefix.length);
    }
    document.title = mine ? prefix + title : title;
    var icon = document.querySelector("link[rel=icon]");
    if (icon) {
      icon.href = mine ? game.dataset.faviconTurn : game.dataset.favicon;
    }
    if (mine && wasMyTurn === false && document.body.hasAttribute("data-sound")) {
      beep();
    }
    wasMyTurn = mine;
  }

  // --- focus ------------------------------------------------------------------------------------------

  function primary(root) {
    return (
      root.querySelector("[data-primary]") ||
      root.querySelector(".hand .card-button.playable") ||
      root.querySelector(".board button.box.open")
    );
  }

  function keyOf(el) {
    if (!el || el === document.body) {
      return null;
    }
    if (el.id) {
      return "#" + CSS.escape(el.id);
    }
    if (el.dataset.box) {
      return '[data-box="' + el.dataset.box + '"]';
    }
    if (el.name && el.value) {
      return '[name="' + el.name + '"][value="' + CSS.escape(el.value) + '"]';
    }
    return null;
  }

  function remember(event) {
    var target = event.detail && event.detail.target;
    if (!target || (target.id !== "game" && target.id !== "replay")) {
      return;
    }
    var active = document.activeElement;
    before = {
      inside: target.contains(active) || active === document.body || active === null,
      key: target.contains(active) ? keyOf(active) : null,
    };
  }

  // The cards ticked for a discard or a pass, kept while the others are still choosing: the
  // table may be swapped meanwhile (a poll, a pushed event), ticks and all.
  var ticked = null;

  function noteTicks(event) {
    var choice = event.target.closest && event.target.closest(".choice-form fieldset[id]");
    if (choice) {
      ticked = {
        id: choice.id,
        values: Array.prototype.map.call(choice.querySelectorAll("input:checked"), function (i) {
          return i.value;
        }),
      };
    }
  }

  function restoreTicks(root) {
    var choice = ticked && root.querySelector(".choice-form fieldset[id]");
    if (!choice || choice.id !== ticked.id || choice.querySelector("input:checked")) {
      return;
    }
    ticked.values.forEach(function (value) {
      var input = choice.querySelector('input[value="' + CSS.escape(value) + '"]:not(:checked)');
      if (input) {
        input.checked = true;
      }
    });
  }

  function settleFocus(root, firstLoad, was) {
    var mine = root.dataset.myTurn === "1";
    if (firstLoad) {
      if (mine && (document.activeElement === document.body || !document.activeElement)) {
        var first = primary(root);
        if (first) {
          first.focus({ preventScroll: true });
        }
      }
      return;
    }
    if (!was || !was.inside) {
      return; // the player was busy elsewhere on the page: leave them there
    }
    // The same control if it is still there (a ticked card while others choose), else the
    // next thing to act on, else the line that says whose turn it is.
    var next = was.key ? root.querySelector(was.key) : null;
    if (next && !next.matches("button:not([disabled]), input, a[href], [tabindex]")) {
      next = null;
    }
    // On the player's turn only a control to act with keeps the focus; the line saying whose
    // turn it is gives it up to the next thing to act on.
    if (mine && !(next && next.closest(".hand, .board, form[data-teams], .choice-form"))) {
      next = primary(root) || next;
    }
    if (!next) {
      next = root.querySelector("#game-status, .replay-move") || root;
      if (!next.hasAttribute("tabindex")) {
        next.setAttribute("tabindex", "-1");
      }
    }
    next.focus();
  }

  // --- arrow keys ---------------------------------------------------------------------------------

  function focusables(group) {
    return Array.prototype.filter.call(
      group.querySelectorAll("button, input, a[href]"),
      function (el) {
        return !el.disabled && el.offsetParent !== null;
      }
    );
  }

  // One tab stop per group: the item that had the focus last, else the first to act on.
  function rove(group, current) {
    focusables(group).forEach(function (el) {
      el.tabIndex = el === current ? 0 : -1;
    });
  }

  function roving(root) {
    root.querySelectorAll("[data-arrows]").forEach(function (group) {
      var items = focusables(group);
      if (!items.length) {
        return;
      }
      var current = items.filter(function (el) {
        return el === document.activeElement || (group.dataset.roved && el.tabIndex === 0);
      })[0];
      var first = group.querySelector("[data-primary], .card-button.playable");
      current = current || (items.indexOf(first) >= 0 ? first : items[0]);
      rove(group, current);
      group.dataset.roved = "1";
    });
  }

  function roved(event) {
    var group = event.target.closest && event.target.closest("[data-arrows]");
    if (group && focusables(group).indexOf(event.target) >= 0) {
      rove(group, event.target);
    }
  }

  // Enter sends a discard or a pass (with the focused card when the choice is one card
  // short), or the teams as ticked (a radio with the focus is ticked first).
  function sendKey(event) {
    if (event.key !== "Enter" || event.altKey || event.ctrlKey || event.metaKey ||
        event.shiftKey || !event.target.matches || !event.target.matches("input")) {
      return;
    }
    var input = event.target;
    var form = input.closest(".choice-form, form[data-teams]");
    if (!form) {
      return;
    }
    event.preventDefault();
    if (form.matches(".choice-form")) {
      var wanted = Number(form.dataset.count || 1);
      var ticked = form.querySelectorAll("input[name=cards]:checked, input[name=card]:checked");
      if (!input.checked && ticked.length === wanted - 1) {
        input.checked = true;
        noteTicks({ target: input });
      }
    } else if (input.type === "radio" && !input.checked) {
      input.checked = true;
      syncTeams(document.getElementById("game"));
    }
    if (form.requestSubmit) {
      form.requestSubmit();
    } else {
      form.submit();
    }
  }

  function centre(el) {
    var box = el.getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  }

  function arrows(event) {
    var group = event.target.closest && event.target.closest("[data-arrows]");
    if (!group || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    var items = focusables(group);
    var at = items.indexOf(event.target.closest("button, input, a") || event.target);
    if (at < 0) {
      return;
    }
    var key = event.key;
    var next = null;
    if (group.dataset.arrows === "row" && (key === "ArrowUp" || key === "ArrowDown")) {
      key = key === "ArrowUp" ? "ArrowLeft" : "ArrowRight"; // nor do they tick a radio
    }
    if (key === "ArrowRight" || key === "ArrowLeft") {
      next = items[(at + (key === "ArrowRight" ? 1 : items.length - 1)) % items.length];
    } else if ((key === "ArrowUp" || key === "ArrowDown") && group.dataset.arrows === "grid") {
      // The nearest box in the closest line above or below that has one.
      var from = centre(items[at]);
      var down = key === "ArrowDown";
      var best = null;
      items.forEach(function (el) {
        var c = centre(el);
        var dy = down ? c.y - from.y : from.y - c.y;
        if (dy < 4) {
          return;
        }
        var score = dy * 1000 + Math.abs(c.x - from.x);
        if (!best || score < best.score) {
          best = { el: el, score: score };
        }
      });
      next = best && best.el;
    } else if (key === "Home" || key === "End") {
      next = key === "Home" ? items[0] : items[items.length - 1];
    }
    if (next) {
      event.preventDefault();
      rove(group, next);
      next.focus();
    }
  }

  function replayKeys(event) {
    var replay = document.getElementById("replay");
    if (!replay || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") {
      return;
    }
    var step = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    var link = step && replay.querySelector('[data-step="' + step + '"]');
    if (link) {
      event.preventDefault();
      before = { inside: true, key: "#replay-" + step };
      // A key pressed just after a swap may come before htmx has looked at the new link.
      if (window.htmx) {
        htmx.process(link);
      }
      link.click();
    }
  }

  // --- choosing the teams by clicking seats -------------------------------------------------------------

  function teamChoice(game) {
    var form = game.querySelector("form[data-teams]");
    game.classList.toggle("choosing-teams", !!form);
    if (!form) {
      return;
    }
    form.querySelectorAll(".js-only").forEach(function (el) {
      el.hidden = false;
    });
    game.querySelectorAll(".pick").forEach(function (el) {
      el.hidden = false;
    });
    syncTeams(game);
  }

  function syncTeams(game) {
    var form = game.querySelector("form[data-teams]");
    if (!form) {
      return;
    }
    var partners = [];
    form.querySelectorAll("input[name=partner]").forEach(function (box) {
      if (box.checked) {
        partners.push(box.value);
      }
    });
    // At 5 players the bonus goes to a player of the two-player team: only they may take it.
    var holders = form.querySelectorAll("input[name=bonus]");
    if (holders.length) {
      var others = Array.prototype.map.call(
        form.querySelectorAll("input[name=partner]"),
        function (box) {
          return box.value;
        }
      );
      var seats = Array.prototype.map.call(holders, function (radio) {
        return radio.value;
      });
      var team = partners.concat(seats.filter(function (s) {
        return others.indexOf(s) < 0;
      }));
      var eligible =
        partners.length === 1 ? team : partners.length === 2 ? seats.filter(function (s) {
          return team.indexOf(s) < 0;
        }) : [];
      holders.forEach(function (radio) {
        radio.disabled = eligible.indexOf(radio.value) < 0;
        if (radio.disabled) {
          radio.checked = false;
        }
      });
      game.querySelectorAll(".pick-bonus").forEach(function (button) {
        button.disabled = eligible.indexOf(button.dataset.bonus) < 0;
      });
    }
    roving(form); // a radio just disabled may have been its group's tab stop
    var bonusInput = form.querySelector("input[name=bonus]:checked");
    var bonus = bonusInput ? bonusInput.value : "";
    game.querySelectorAll(".pick-partner").forEach(function (button) {
      var on = partners.indexOf(button.dataset.partner) >= 0;
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.closest(".seat").classList.toggle("picked", on);
    });
    game.querySelectorAll(".pick-bonus").forEach(function (button) {
      button.setAttribute("aria-pressed", button.dataset.bonus === bonus ? "true" : "false");
    });
    var sentences = JSON.parse(document.getElementById("team-sentences").textContent);
    var key = partners.sort().join(",") + "|" + bonus;
    var out = form.querySelector(".team-sentence");
    var sentence = sentences[key];
    var touched = partners.length > 0 || bonus !== "";
    out.textContent = sentence || (touched ? out.dataset.invalid : "");
    out.classList.toggle("invalid", !sentence && touched);
  }

  function tickInput(game, selector) {
    var input = game.querySelector(selector);
    if (!input) {
      return;
    }
    input.checked = !input.checked;
    syncTeams(game);
  }

  function teamClicks(event) {
    var game = document.getElementById("game");
    if (!game || !game.classList.contains("choosing-teams")) {
      return;
    }
    var pick = event.target.closest(".pick");
    if (pick) {
      if (pick.dataset.partner) {
        tickInput(game, "#partner-" + pick.dataset.partner);
      } else {
        var radio = game.querySelector("#bonus-" + pick.dataset.bonus);
        radio.checked = !radio.checked;
        syncTeams(game);
      }
      return;
    }
    var seat = event.target.closest(".seat[data-seat]");
    if (seat && !seat.classList.contains("me") && !event.target.closest("a, button, input, label")) {
      tickInput(game, "#partner-" + seat.dataset.seat);
    }
  }

  // --- after every load and every update ------------------------------------------------------------

  // What had the focus last, for swaps that give no htmx:beforeSwap (a pushed event may not).
  var lastFocus = null;

  document.addEventListener("focusin", function (event) {
    var target = event.target;
    lastFocus = {
      inside: !!(target.closest && target.closest("#game, #replay")),
      key: keyOf(target),
    };
  });

  function init(firstLoad) {
    var was = before;
    before = null;
    var lost = document.activeElement === document.body || !document.activeElement;
    if (!was && lost && lastFocus && lastFocus.inside) {
      was = lastFocus;
    }
    localTimes(document);
    tick();
    var game = document.getElementById("game");
    if (game) {
      turnSignals(game);
      teamChoice(game);
      restoreTicks(game);
      game.querySelectorAll(".keys-hint[hidden]").forEach(function (el) {
        el.hidden = false; // the keys work with this script only
      });
      settleFocus(game, firstLoad, was);
      roving(game);
    }
    var replay = document.getElementById("replay");
    if (replay && !firstLoad) {
      settleFocus(replay, false, was);
    }
  }

  // --- the new-game form -------------------------------------------------------------------

  // Expert thinks for seconds over each move: it is offered with a correspondence time only
  // (the server refuses it at a live table). A seat that had it falls back to the default.
  function correspondenceLevels(form) {
    var time = form && form.querySelector("select[name=move_seconds]");
    if (!time) {
      return;
    }
    var live = time.value.indexOf("correspondence:") !== 0;
    form.querySelectorAll("option[data-correspondence-only]").forEach(function (option) {
      var chosen = option.selected;
      option.hidden = live;
      option.disabled = live;
      if (live && chosen) {
        option.parentNode.value = form.getAttribute("data-default-level") || "";
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    shown = document.getElementById("game") || document.getElementById("replay");
    init(true);
    correspondenceLevels(document.querySelector("form.new-game"));
    reportZone();
    setInterval(tick, 1000);
  });
  document.addEventListener("htmx:beforeSwap", remember);
  document.addEventListener("nyet:swap", remember); // a table live.js shows (a step, or held)
  // Any swap of the table, whatever made it (a move, the poll, a pushed event): once per new
  // table, after it has settled.
  var shown = null; // the table on screen; null until the page has loaded

  function swapped() {
    var current = document.getElementById("game") || document.getElementById("replay");
    if (shown !== null && current && current !== shown) {
      shown = current;
      init(false);
    }
  }

  document.addEventListener("htmx:afterSettle", swapped);
  document.addEventListener("htmx:load", swapped);
  document.addEventListener("keydown", function (event) {
    arrows(event);
    if (!event.defaultPrevented) {
      sendKey(event);
    }
    if (!event.defaultPrevented) {
      replayKeys(event);
    }
  });
  document.addEventListener("focusin", roved);
  document.addEventListener("click", function (event) {
    // A tap on a card that may not be played shows why (browsers that do not focus buttons
    // on a tap, as Safari does not, get the focus given here).
    var refused = event.target.closest && event.target.closest(".card-button.unplayable");
    if (refused) {
      refused.focus();
    }
    teamClicks(event);
  });
  document.addEventListener("change", function (event) {
    noteTicks(event);
    if (event.target.closest && event.target.closest("form[data-teams]")) {
      syncTeams(document.getElementById("game"));
    }
    if (event.target.name === "move_seconds" && event.target.closest("form.new-game")) {
      correspondenceLevels(event.target.closest("form.new-game"));
    }
  });
})();
