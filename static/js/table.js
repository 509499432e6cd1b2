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
   - after each update, the cards and tokens travel from where they were (none of it with
     prefers-reduced-motion); a forced card is played for a player who asked for it;
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

  // --- motion: cards and tokens travel ----------------------------------------------------------
  //
  // The table is swapped whole after every move (an htmx answer, or live.js showing the moves
  // one by one), so by itself nothing moves. Just before a swap the page notes where each card
  // of the trick, the hand and the discard is, and which boxes hold a token; just after it,
  // before the browser paints, each piece is drawn back where it was and let go (FLIP, in
  // about a third of a second): a card played travels from the hand to the trick, another
  // player's card comes from their seat, a taken trick gathers to its winner's seat, a token
  // comes from its player's seat and drops on its box. The Web Animations API does it, so no
  // style attribute is written (the site's CSP refuses them), and the controls are in their
  // new places from the first frame: input and focus never wait for an animation. Nothing
  // moves under prefers-reduced-motion, nor where the browser cannot animate.
  //
  // (The View Transitions API would have been the other way. But live.js shows each move with
  // htmx.swap and reads the new table right after it, which a transition's deferred swap
  // breaks; a transition lays an overlay over the page that takes the clicks while it runs;
  // and the three 1s of a colour, alike, would need names unique on the page.)

  var MOTION_MS = 320;
  var stillness = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  var noted = null; // the table about to be swapped, and where its pieces were

  function motionAllowed() {
    return typeof Element.prototype.animate === "function" && !(stillness && stillness.matches);
  }

  function boxOf(el) {
    if (!el) {
      return null;
    }
    var rect = el.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0 ? rect : null;
  }

  // The cards that may move, each with its zone and a key that finds it again after a swap: a
  // trick's card by its seat (each seat plays once a trick), a hand's or a discard's by its
  // copy (a hand may hold the same 1 three times).
  function movingCards(root) {
    var found = [];
    root.querySelectorAll(".center > .trick > .play[data-seat] > .card[data-card]").forEach(
      function (card) {
        var play = card.parentNode;
        found.push({
          el: card,
          zone: play.parentNode.classList.contains("finished") ? "taken" : "trick",
          key: play.dataset.seat + ":" + card.dataset.card,
          code: card.dataset.card,
          seat: play.dataset.seat,
          winning: play.classList.contains("winning"),
        });
      }
    );
    ["hand", "choice"].forEach(function (zone) {
      var copies = {};
      root.querySelectorAll('[data-zone="' + zone + '"] .card[data-card]').forEach(function (card) {
        var code = card.dataset.card;
        copies[code] = (copies[code] || 0) + 1;
        found.push({ el: card, zone: zone, key: code + "#" + copies[code], code: code });
      });
    });
    return found;
  }

  function seatOf(root, seat) {
    return root.querySelector('.felt .seat[data-seat="' + seat + '"]');
  }

  function noteMotion(event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "game") {
      return;
    }
    noted = null;
    if (!motionAllowed()) {
      return;
    }
    var tokens = {};
    target.querySelectorAll(".board [data-box] .token").forEach(function (token) {
      tokens[token.closest("[data-box]").dataset.box] = true;
    });
    var me = target.querySelector(".felt .seat.me[data-seat]");
    noted = {
      root: target,
      round: target.dataset.round,
      me: me ? me.dataset.seat : null,
      board: !!target.querySelector(".board"),
      tokens: tokens,
      cards: movingCards(target).filter(function (card) {
        card.box = boxOf(card.el);
        return card.box !== null;
      }),
    };
  }

  // ``el`` is drawn at ``from`` (a rect) and let go to its place; ``arriving``: it comes out of
  // a seat's hidden hand, small and faint.
  function travel(el, from, arriving) {
    var to = boxOf(el);
    if (!to) {
      return;
    }
    var dx = from.left + from.width / 2 - (to.left + to.width / 2);
    var dy = from.top + from.height / 2 - (to.top + to.height / 2);
    var scale = arriving ? 0.45 : from.width / to.width;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(scale - 1) < 0.02) {
      return;
    }
    var style = window.getComputedStyle(el);
    var rest = style.transform === "none" ? "" : style.transform;
    var first = { transform: "translate(" + dx + "px, " + dy + "px) scale(" + scale + ") " + rest };
    var last = { transform: rest || "none" };
    if (arriving) {
      first.opacity = 0;
      last.opacity = style.opacity;
    }
    fly(el, [first, last], { duration: MOTION_MS, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" },
      arriving ? "nyet-arrive" : "nyet-travel");
  }

  // Drawn above the rest of the table while it moves (a card from the hand passes over the
  // player's own seat).
  function fly(el, frames, options, id) {
    options.id = id;
    el.classList.add("in-flight");
    var animation = el.animate(frames, options);
    animation.onfinish = animation.oncancel = function () {
      el.classList.remove("in-flight");
    };
    return animation;
  }

  var layer = null; // what flies out of the table: the taken trick's cards, gathering

  function motionLayer() {
    if (!layer || !layer.isConnected) {
      layer = document.createElement("div");
      layer.className = "motion-layer";
      layer.setAttribute("aria-hidden", "true");
      document.body.appendChild(layer);
    }
    return layer;
  }

  // The cards of a trick that left the middle of the table (taken: the next card was led, or
  // the round is over) fly to the seat that took it, and fade there.
  function gather(was, game, cards) {
    var taken = cards.filter(function (c) {
      return c.zone === "taken" || c.zone === "trick";
    });
    if (!taken.length) {
      return;
    }
    var winner = taken.filter(function (c) {
      return c.zone === "taken" && c.winning;
    })[0];
    var seat = winner ? winner.seat : null;
    if (seat === null) { // the trick ended with the round: the summary says who took it
      var won = game.querySelector(".trick.finished .play.winning[data-seat]");
      seat = won ? won.dataset.seat : null;
    }
    var panel = seat === null ? null : seatOf(game, seat);
    var target = panel && (boxOf(panel.querySelector(".fig-tricks")) || boxOf(panel));
    if (!target) {
      return; // the game is over: no seats to go to
    }
    taken.forEach(function (card, i) {
      var clone = card.el.cloneNode(true);
      clone.removeAttribute("title");
      clone.dataset.to = seat;
      motionLayer().appendChild(clone);
      var natural = clone.getBoundingClientRect();
      var from = card.box;
      var scale = from.width / natural.width;
      var end = scale * 0.4;
      var x = target.left + target.width / 2 - (natural.width * end) / 2;
      var y = target.top + target.height / 2 - (natural.height * end) / 2;
      var animation = clone.animate(
        [
          { transform: "translate(" + from.left + "px, " + from.top + "px) scale(" + scale + ")" },
          { transform: "translate(" + x + "px, " + y + "px) scale(" + end + ")", opacity: 0.2 },
        ],
        { duration: MOTION_MS + 60, delay: i * 40, easing: "ease-in", fill: "both", id: "nyet-gather" }
      );
      animation.onfinish = animation.oncancel = function () {
        clone.remove();
      };
    });
  }

  // A token new on the board comes from its player's seat and drops on its box.
  function drop(was, game) {
    if (!was.board) {
      return;
    }
    game.querySelectorAll(".board [data-box] .token").forEach(function (token) {
      if (was.tokens[token.closest("[data-box]").dataset.box]) {
        return;
      }
      var to = boxOf(token);
      var seat = /seat-color-(\d+)/.exec(token.className);
      var mark = seat && seatOf(game, seat[1]);
      var from = boxOf(mark && mark.querySelector(".token-mark"));
      if (!to) {
        return;
      }
      var first = from
        ? "translate(" + (from.left + from.width / 2 - to.left - to.width / 2) + "px, " +
          (from.top + from.height / 2 - to.top - to.height / 2) + "px) scale(1.4)"
        : "translateY(-1rem) scale(1.8)";
      fly(token, [
        { transform: first, opacity: from ? 1 : 0 },
        { transform: "translateY(-0.4rem) scale(1.5)", opacity: 1, offset: 0.7 },
        { transform: "none", opacity: 1 },
      ], { duration: MOTION_MS + 80, easing: "ease-out" }, "nyet-token");
    });
  }

  function moveMotion() {
    var was = noted;
    var game = document.getElementById("game");
    if (!was || was.root.isConnected || !game || game === was.root) {
      return;
    }
    noted = null;
    if (!motionAllowed()) {
      return;
    }
    var sameRound = was.round === game.dataset.round;
    var left = {}; // the cards before the swap not found again yet, by zone and key
    was.cards.forEach(function (card) {
      left[card.zone + "|" + card.key] = card;
    });

    function take(zone, key) {
      var card = left[zone + "|" + key];
      delete left[zone + "|" + key];
      return card || null;
    }

    function fromHand(code) {
      var found = was.cards.filter(function (card) {
        return card.zone === "hand" && card.code === code && left["hand|" + card.key];
      })[0];
      return found ? take("hand", found.key) : null;
    }

    var now = movingCards(game);
    // The hand first: of a card held twice, the one played is the copy the hand lost.
    var order = { hand: 0, choice: 1, trick: 2, taken: 2 };
    now.sort(function (a, b) {
      return order[a.zone] - order[b.zone];
    });
    now.forEach(function (card) {
      var from = null;
      if (!sameRound) {
        return; // a new deal: nothing on the table is what it was
      }
      if (card.zone === "hand") {
        from = take("hand", card.key);
      } else if (card.zone === "choice") {
        from = take("choice", card.key) || fromHand(card.code);
      } else {
        from = take(card.zone, card.key) || (card.zone === "taken" ? take("trick", card.key) : null);
        if (!from && card.seat === was.me) {
          from = fromHand(card.code);
        }
        if (!from) {
          var seat = seatOf(game, card.seat);
          var hidden = boxOf(seat && seat.querySelector(".backs")) || boxOf(seat);
          if (hidden) {
            travel(card.el, hidden, true);
          }
          return;
        }
      }
      if (from) {
        travel(card.el, from.box, false);
      }
    });
    gather(was, game, Object.keys(left).map(function (key) {
      return left[key];
    }));
    drop(was, game);
  }

  // --- forced cards: played for the player who asked for it ----------------------------------
  //
  // With "Play forced cards for me" (User.play_forced_cards) the server marks the only card
  // the rules allow (data-forced). The page says it will play it, and after data-delay ms
  // clicks it: the same form and the same checks as the player's own click. Cancel (or Escape)
  // leaves it to the player for this turn.

  var forced = null; // {turn, timer, note}
  var declined = null; // the turn ("game:version") whose forced card the player kept

  function stopForced() {
    if (forced) {
      window.clearTimeout(forced.timer);
      forced = null;
    }
  }

  function forcedCard(game) {
    stopForced();
    var card = game.querySelector(".hand .card-button.playable[data-forced]");
    var note = game.querySelector("[data-forced-note]");
    var turn = game.dataset.game + ":" + game.dataset.version;
    if (!card || !note || turn === declined) {
      return;
    }
    var text = note.querySelector(".forced-text");
    note.hidden = false;
    note.classList.add("counting");
    // Said once the region is on the page, so that screen readers announce it.
    window.setTimeout(function () {
      text.textContent = text.dataset.playing;
    }, 50);
    forced = {
      turn: turn,
      note: note,
      timer: window.setTimeout(function () {
        forced = null;
        note.classList.remove("counting");
        if (card.isConnected) {
          card.click();
        }
      }, Number(note.dataset.delay) || 1500),
    };
  }

  function cancelForced() {
    if (!forced) {
      return false;
    }
    var note = forced.note;
    declined = forced.turn;
    stopForced();
    note.classList.remove("counting");
    var text = note.querySelector(".forced-text");
    text.textContent = text.dataset.cancelled;
    var cancel = note.querySelector("[data-forced-cancel]");
    var hadFocus = document.activeElement === cancel;
    cancel.hidden = true;
    var card = document.querySelector("#game .hand .card-button[data-forced]");
    if (hadFocus && card) {
      card.focus();
    }
    return true;
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
      forcedCard(game);
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
  document.addEventListener("htmx:beforeSwap", noteMotion);
  document.addEventListener("nyet:swap", noteMotion);
  // Right after the new table is in, before the browser paints it (htmx.swap, as live.js
  // calls it, says so too).
  document.addEventListener("htmx:afterSwap", moveMotion);
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
    if (event.key === "Escape" && cancelForced()) {
      event.preventDefault();
      return;
    }
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
    if (event.target.closest && event.target.closest("[data-forced-cancel]")) {
      cancelForced();
    } else if (event.target.closest && event.target.closest(".hand .card-button.playable")) {
      stopForced(); // played by the player (or for them): not a second time
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
