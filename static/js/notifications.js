// Turns notifications on in this browser: asks the player's leave, subscribes to the browser's
// push service with the site's public key, and hands the subscription to the site
// (accounts.views.push_device_add). Two places offer it, each a [data-push-key] element with
// its words in the player's language: the settings page's switch, shown at once, and the game
// page's prompt (templates/games/_push_prompt.html), shown after the player's own move at a
// correspondence table, never on a first visit, and asked once on a device.
(function () {
  const ASKED = "nyet.push.asked";
  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

  function say(box, text) {
    box.querySelector(".push-status").textContent = text;
  }

  async function turnOn(box) {
    if ((await Notification.requestPermission()) !== "granted") {
      say(box, box.dataset.denied);
      return false;
    }
    let answer;
    try {
      const registration = await navigator.serviceWorker.register("/sw.js");
      await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: bytes(box.dataset.pushKey),
      });
      const { endpoint, keys } = subscription.toJSON();
      answer = await fetch(box.dataset.pushUrl, {
        method: "POST",
        headers: { "X-CSRFToken": csrfToken() },
        body: new URLSearchParams({ endpoint, p256dh: keys.p256dh, auth: keys.auth }),
      });
    } catch (error) {
      say(box, box.dataset.failed);
      return false;
    }
    if (!answer.ok) {
      say(box, (await answer.text()) || box.dataset.failed);
      return false;
    }
    say(box, box.dataset.on);
    return true;
  }

  function subscribed() {
    return navigator.serviceWorker.ready.then((r) => r.pushManager.getSubscription());
  }

  // The settings page: the button, and whether this browser gets the notifications already.
  const settings = document.querySelector(".push-switch[data-push-key]");
  if (settings && !supported) {
    say(settings, settings.dataset.unsupported);
  } else if (settings) {
    settings.querySelector("button").hidden = false;
    subscribed().then((subscription) => subscription && say(settings, settings.dataset.on));
    settings.querySelector("button").addEventListener("click", async () => {
      if (await turnOn(settings)) window.location.reload(); // the list shows this browser
    });
  }

  // The game page: offered once the player's own move went through.
  const prompt = document.getElementById("push-prompt");
  if (prompt && supported) {
    const done = () => {
      window.localStorage.setItem(ASKED, "1");
      prompt.querySelectorAll("button").forEach((button) => {
        button.hidden = true;
      });
    };
    document.addEventListener("htmx:afterRequest", async (event) => {
      const config = event.detail.requestConfig;
      const moved = config && config.verb === "post" && /\/move\/$/.test(config.path);
      if (!moved || !event.detail.successful || !prompt.hidden) return;
      if (Notification.permission === "denied" || window.localStorage.getItem(ASKED)) return;
      if (await subscribed()) return;
      prompt.hidden = false;
    });
    prompt.querySelector("[data-push-on]").addEventListener("click", async () => {
      if (await turnOn(prompt)) done();
    });
    prompt.querySelector("[data-push-later]").addEventListener("click", () => {
      done();
      prompt.hidden = true;
    });
  }

  function bytes(base64url) {
    const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
    return Uint8Array.from(raw, (character) => character.charCodeAt(0));
  }

  function csrfToken() {
    return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
  }
})();
