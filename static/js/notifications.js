// The settings page's switch for notifications in this browser (templates/accounts/settings.html):
// asks the player's leave, subscribes to the browser's push service with the site's public key,
// and hands the subscription to the site (accounts.views.push_device_add). The words come from
// the page, in the player's language.
(function () {
  const box = document.querySelector("[data-push-key]");
  if (!box) return;
  const status = document.querySelector(".push-status");
  const say = (text) => {
    status.textContent = text;
  };
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say(box.dataset.unsupported);
    return;
  }
  box.hidden = false;
  navigator.serviceWorker.ready
    .then((registration) => registration.pushManager.getSubscription())
    .then((subscription) => subscription && say(box.dataset.on));

  box.querySelector("button").addEventListener("click", async () => {
    if ((await Notification.requestPermission()) !== "granted") {
      say(box.dataset.denied);
      return;
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
      say(box.dataset.failed);
      return;
    }
    if (answer.ok) {
      window.location.reload(); // the list of devices shows this one
    } else {
      say((await answer.text()) || box.dataset.failed);
    }
  });

  function bytes(base64url) {
    const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
    return Uint8Array.from(raw, (character) => character.charCodeAt(0));
  }

  function csrfToken() {
    return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
  }
})();
